/**
 * The password check every login path uses (password grant, login form):
 * the user authenticator behind the login throttle (login-throttle.ts).
 *
 * Rules enforced here:
 * - a refused attempt throws LoginThrottledError before any password is
 *   hashed (the callers answer 429 with `Retry-After`), after
 *   `refusalDelayMs`: guessing tools wait for each answer, so the delay,
 *   not the machine, sets how fast they can be refused, and the CPU that
 *   hundreds of refusals a second would take stays with real logins;
 * - otherwise the attempt is counted for the account as it starts (so
 *   parallel guesses cannot overtake the count), the password is checked,
 *   and the outcome recorded: a failure for the client address, a success
 *   resets the account. An attempt that could not be checked (hash queue
 *   full, database error) stays counted for the account.
 *
 * Usage:
 *   const login = createThrottledAuthenticator(authenticate, throttle, { refusalDelayMs: 1000 });
 *   const user = await login('bob', 'secret', '203.0.113.7'); // undefined when wrong
 */
import type { AuthenticatedUser, UserAuthenticator } from '../accounts/authenticate-user.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoginThrottle } from './login-throttle.ts';

export type ThrottledAuthenticator = (username: string, password: string, address: string) => Promise<AuthenticatedUser | undefined>;

export class LoginThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`too many failed logins; retry after ${retryAfterSeconds} s`);
    this.name = 'LoginThrottledError';
  }
}

export function createThrottledAuthenticator(authenticate: UserAuthenticator, throttle: LoginThrottle, options: { refusalDelayMs?: number } = {}): ThrottledAuthenticator {
  const refusalDelayMs = options.refusalDelayMs ?? 0;
  return async function throttledLogin(username, password, address) {
    const refusal = await throttle.begin(username, address);
    if (refusal) {
      if (refusalDelayMs > 0) await sleep(refusalDelayMs);
      throw new LoginThrottledError(refusal.retryAfterSeconds);
    }
    const user = await authenticate(username, password);
    if (user) await throttle.succeeded(username);
    else await throttle.failed(address);
    return user;
  };
}
