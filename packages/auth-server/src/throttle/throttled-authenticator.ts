/**
 * Every credential check (passwords of every login path, client secrets) behind the login throttle (login-throttle.ts,
 * docs/oauth.md "Lockout"): a refused attempt throws LoginThrottledError (429) after `refusalDelayMs`, before any hash
 * (held at the edge when it came through it: refusal-hold.ts); otherwise it is counted as it starts, checked, and its
 * outcome recorded, with the audit event and what a success leads to (`onSuccess`) in that same statement.
 * Usage: createThrottledAuthenticator(authenticate, createThrottleGuard(throttle, { refusalDelayMs: 1000 }))
 */
import type { AuthenticatedUser, LoginOutcome, UserAuthenticator } from '../accounts/authenticate-user.ts';
import type { RecordWith } from '@heroes/db';
import { RetryLaterError } from '@heroes/http-kit';
import { retryAfterWords } from '@heroes/oauth-scopes';
import { accountSubject, isRefusal, type LoginThrottle } from './login-throttle.ts';
import { delayRefusal } from './refusal-hold.ts';

/** Where a login comes from: the client address, and the client it signs in to. */
interface LoginOrigin {
  address: string;
  clientId?: string | undefined;
}

export interface ThrottledAuthenticator {
  (username: string, password: string, origin: LoginOrigin): Promise<AuthenticatedUser | undefined>;
  <R>(username: string, password: string, origin: LoginOrigin, onSuccess: (user: AuthenticatedUser) => Promise<R>): Promise<R | undefined>;
}

/** How a guarded attempt's outcome is recorded in the audit trail. */
interface GuardAudit {
  succeeded: RecordWith;
  failed: RecordWith;
  refused(retryAfterSeconds: number): Promise<void>;
}

/** The audit of one user login (audit/login-audit.ts); `why` is filled by the password check. */
export type LoginAuditor = (username: string, origin: LoginOrigin, why: LoginOutcome) => GuardAudit;

/** 429 with Retry-After (RFC 6585 section 4): http-kit's one "retry later" error. */
class LoginThrottledError extends RetryLaterError {
  constructor(retryAfterSeconds: number, what = 'logins') {
    super(`too many failed ${what}; ${retryAfterWords(retryAfterSeconds)}`, { status: 429, retryAfterSeconds, code: 'login_throttled' });
  }
}

interface GuardOptions<T, R> {
  /** What is refused, for the 429's message ("logins" when absent). */
  what?: string;
  /** Run on success beside recording it; its result is the guard's. */
  onSuccess?: (result: T) => Promise<R>;
  /** Records the outcome in the audit trail. */
  audit?: GuardAudit | undefined;
  /**
   * A refusal holds for every repeat of the attempt, whatever its
   * credential (a user's password: the subject is the account), so the edge
   * may answer repeats itself until it ends (refusal-hold.ts). Never for a
   * client secret: a secret verified before skips the throttle, so a
   * repeat with the right one must reach this server.
   */
  edgeMayRepeat?: boolean;
}

/** Runs `check` (undefined: wrong credential) for `subject` from `address` behind the throttle. */
export interface ThrottleGuard {
  <T>(subject: string, address: string, check: () => Promise<T | undefined>, options?: { what?: string; audit?: GuardAudit | undefined; edgeMayRepeat?: boolean }): Promise<T | undefined>;
  <T, R>(subject: string, address: string, check: () => Promise<T | undefined>, options: GuardOptions<T, R> & { onSuccess: (result: T) => Promise<R> }): Promise<R | undefined>;
}

export function createThrottleGuard(throttle: LoginThrottle, options: { refusalDelayMs?: number } = {}): ThrottleGuard {
  const refusalDelayMs = options.refusalDelayMs ?? 0;
  return async function guarded<T, R>(subject: string, address: string, check: () => Promise<T | undefined>, { what, onSuccess, audit, edgeMayRepeat }: GuardOptions<T, R> = {}) {
    const admission = await throttle.begin(subject, address);
    if (isRefusal(admission)) {
      await audit?.refused(admission.retryAfterSeconds);
      await delayRefusal(refusalDelayMs, edgeMayRepeat ? admission.waitMs : undefined);
      throw new LoginThrottledError(admission.retryAfterSeconds, what);
    }
    const result = await check();
    if (result === undefined) {
      await throttle.failed(admission, audit?.failed);
      return undefined;
    }
    const [, outcome] = await Promise.all([throttle.succeeded(admission, audit?.succeeded), onSuccess ? onSuccess(result) : result]);
    return outcome;
  } as ThrottleGuard;
}

export function createThrottledAuthenticator(authenticate: UserAuthenticator, guard: ThrottleGuard, auditLogin?: LoginAuditor): ThrottledAuthenticator {
  return function throttledLogin<R>(username: string, password: string, origin: LoginOrigin, onSuccess?: (user: AuthenticatedUser) => Promise<R>) {
    const check = authenticate(username); // the user's read goes out beside the throttle's statement
    const why: LoginOutcome = {};
    const audit = auditLogin?.(username, origin, why);
    const attempt = () => check(password, why);
    const subject = accountSubject(username);
    return onSuccess ? guard(subject, origin.address, attempt, { onSuccess, audit, edgeMayRepeat: true }) : guard(subject, origin.address, attempt, { audit, edgeMayRepeat: true });
  } as ThrottledAuthenticator;
}
