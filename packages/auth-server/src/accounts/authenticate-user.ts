/**
 * Checks a username and password against the users table (the hash that
 * the resource server's /register stored with bcrypt).
 *
 * Rules enforced here:
 * - unknown user and wrong password are indistinguishable to the caller,
 *   and take the same time: an unknown user still pays one bcrypt compare
 *   (against a dummy hash of the same cost), so response time does not
 *   reveal which usernames exist;
 * - an empty password never matches;
 * - the account is found by the key of the username (@heroes/text-rules
 *   usernameKey, RFC 8265 UsernameCaseMapped): `Alice`, `alice` and
 *   fullwidth `ａｌｉｃｅ` are one account; a username no account can have
 *   (NUL, control or invisible characters, a lone surrogate, leading or
 *   trailing spaces) is unknown without a query;
 * - a password with a lone surrogate never matches: it has no UTF-8 form,
 *   and bcrypt would compare it as U+FFFD. (A NUL is fine: bcrypt compares
 *   every byte, and the password never reaches a query.)
 * - the user is read with one plain statement (adapter/find-by-key.ts):
 *   one read per token request, started as soon as the username is given,
 *   so the caller can send it beside its own statement (the throttle's, one
 *   round trip for both) and hand the password over after;
 * - a disabled user (`auth users disable`) never matches, and the caller
 *   hears the same as for a wrong password; `why.reason` (for the audit
 *   trail only) says which it was: unknown user, wrong password, disabled;
 * - every compare goes through the bounded hash queue (http-kit's
 *   BoundedQueue): when it is full, QueueFullError (a 503 with Retry-After
 *   for the callers) at once, no password checked.
 */
import bcrypt from 'bcrypt';
import { findUserRow, type PrismaClient, type UserRow } from '@heroes/db';
import { isWellFormedText } from '@heroes/http-kit';
import { type BoundedQueue } from '@heroes/platform';
import { usernameKey } from '@heroes/text-rules/username';

export interface AuthenticatedUser {
  id: number;
  username: string;
}

/** Why a check failed, for the audit trail (never shown to the caller). */
export interface LoginOutcome {
  reason?: 'unknown user' | 'wrong password' | 'user disabled';
}

/** Starts reading the user; the function it returns checks the password against that row. */
export type UserAuthenticator = (username: string) => (password: string, why?: LoginOutcome) => Promise<AuthenticatedUser | undefined>;

/**
 * Usage:
 *   const authenticate = createUserAuthenticator(db, 10, new BoundedQueue({ concurrency: 4, maxQueued: 32 }));
 *   const check = authenticate('bob'); // the read is on its way
 *   const user = await check('secret'); // undefined when wrong; QueueFullError when busy
 */
export function createUserAuthenticator(db: PrismaClient, cost: number, hashQueue: BoundedQueue): UserAuthenticator {
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= bcrypt.hash('not a password', cost));
  return function authenticateUser(username) {
    const key = usernameKey(username);
    const read = key !== undefined ? findUserRow(db, { usernameKey: key }) : Promise.resolve(undefined);
    // The caller may never check (a throttled attempt): its failure then is nobody's to report.
    read.catch(() => {});
    return (password, why) => checkPassword(read, password, why);
  };

  async function checkPassword(read: Promise<UserRow | undefined>, password: string, why: LoginOutcome = {}): Promise<AuthenticatedUser | undefined> {
    const user = await read;
    const hash = user?.hashedPassword ?? (await dummyHash());
    const matches = password !== '' && isWellFormedText(password) && (await hashQueue.run(() => bcrypt.compare(password, hash).catch(() => false)));
    why.reason = !user ? 'unknown user' : !matches ? 'wrong password' : user.disabled ? 'user disabled' : undefined;
    return user && matches && !user.disabled ? { id: user.id, username: user.username } : undefined;
  }
}
