/**
 * Checks a username and password against the users table. Unknown user, wrong password and disabled user look and
 * take the same (an unknown user pays a compare against a dummy hash); `why.reason` tells them apart for the audit
 * only. Found by the username key (RFC 8265); a name no account can have, an empty password or a lone surrogate never
 * match. Every compare goes through the bounded hash queue (full: QueueFullError at once).
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
