/**
 * Which client proved its secret on a request, recorded by the secret check behind the library's client
 * authentication and read after it answered (unauthorized-client.ts names a refused grant type only to a client
 * that authenticated).
 */
import type { IncomingMessage } from 'node:http';
import type { ThrottledSecretCheck } from './throttled-secret-check.ts';

const matched = new WeakMap<IncomingMessage, string>();

/** `check`, remembering for the request which client's secret matched. */
export function recordSecretMatches(check: ThrottledSecretCheck): ThrottledSecretCheck {
  return async function recordedSecretCheck(clientId, storedHash, presented, req) {
    const matches = await check(clientId, storedHash, presented, req);
    if (matches && req) matched.set(req, clientId);
    return matches;
  };
}

/** The client whose secret matched on this request, if any. */
export function secretMatchedFor(req: IncomingMessage): string | undefined {
  return matched.get(req);
}
