/**
 * Client authentication behind the login throttle: the same smart lockout
 * as passwords (throttle/login-throttle.ts), per client and per address.
 *
 * Rules enforced here:
 * - a secret the cache remembers (secret-cache.ts: verified before,
 *   against the same stored hash) is accepted at once: no throttle, no
 *   hash queue, so the real client keeps working while its id is flooded
 *   with wrong secrets;
 * - any other secret is checked behind the throttle (subject
 *   `client:<digest>`, the request's client address): a refused attempt
 *   throws LoginThrottledError (429 with Retry-After) without a compare;
 *   a wrong secret counts for the client (or its known address) and for
 *   the address; a right one resets its counter and makes the address known;
 * - a client without a stored hash (a public client) never reaches here
 *   with a secret to compare, and one that does never matches.
 *
 * Usage:
 *   const check = createThrottledSecretCheck(secrets, guard);
 *   replaceClientSecretCheck(provider, check); // provider/library-seams.ts
 */
import type { IncomingMessage } from 'node:http';
import { clientAddress } from '../throttle/client-address.ts';
import { clientSubject } from '../throttle/login-throttle.ts';
import type { ThrottleGuard } from '../throttle/throttled-authenticator.ts';
import type { RememberedSecrets, SecretVerifier } from './secret-cache.ts';

export type ThrottledSecretCheck = (clientId: string, storedHash: string | undefined, presented: string, req: IncomingMessage | undefined) => Promise<boolean>;

export function createThrottledSecretCheck(secrets: SecretVerifier & RememberedSecrets, guard: ThrottleGuard): ThrottledSecretCheck {
  return async function throttledSecretCheck(clientId, storedHash, presented, req) {
    if (!storedHash) return false;
    if (secrets.remembered(clientId, storedHash, presented)) return true;
    const address = req ? clientAddress(req) : 'unknown';
    const matched = await guard(clientSubject(clientId), address, async () => ((await secrets(clientId, storedHash, presented)) ? true : undefined), { what: 'client authentications' });
    return matched === true;
  };
}
