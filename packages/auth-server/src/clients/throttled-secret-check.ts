/**
 * Client authentication behind the login throttle (per client and per address, as passwords): a secret the cache
 * remembers is accepted at once (the real client keeps working while its id is flooded); any other is checked behind
 * the throttle, a refused attempt is LoginThrottledError (429) without a compare, a wrong one counts, a right one
 * resets and makes the address known. A client without a stored hash never matches.
 */
import { clientAddressOf } from '@heroes/platform';
import { clientSubject } from '../throttle/login-throttle.ts';
import type { ThrottleGuard } from '../throttle/throttled-authenticator.ts';
import type { RememberedSecrets, SecretVerifier } from './secret-cache.ts';

export type ThrottledSecretCheck = (clientId: string, storedHash: string | undefined, presented: string, ctx: Parameters<typeof clientAddressOf>[0] | undefined) => Promise<boolean>;

export function createThrottledSecretCheck(secrets: SecretVerifier & RememberedSecrets, guard: ThrottleGuard): ThrottledSecretCheck {
  return async function throttledSecretCheck(clientId, storedHash, presented, ctx) {
    if (!storedHash) return false;
    if (secrets.remembered(clientId, storedHash, presented)) return true;
    const address = ctx ? clientAddressOf(ctx).address : 'unknown';
    const matched = await guard(clientSubject(clientId), address, async () => ((await secrets(clientId, storedHash, presented)) ? true : undefined), { what: 'client authentications' });
    return matched === true;
  };
}
