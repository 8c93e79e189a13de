/**
 * The users table: the password grant's and findAccount's reads (plain statements on the Prisma client's pool,
 * sqlPool) and registration's insert (the resource server). Sign-in and uniqueness go by the username's key
 * (@heroes/text-rules usernameKey); look-alikes share a skeleton (a unique index refuses the second). The `auth users`
 * CLI's reads and changes are Prisma typed queries on a client or a transaction (transactions.ts).
 */
import { sqlPool } from '../client-pools.ts';
import type { PrismaClient, User } from '../generated/client.ts';
import type { Queryable } from '../sql-pool.ts';
import type { Transaction } from '../transactions.ts';
import { UTC_NOW } from './stored-rows.ts';

export interface UserRow {
  id: number;
  username: string;
  hashedPassword: string;
  /** Set by `auth users disable`: no sign-in, no token. */
  disabled: boolean;
}

/** A `users` row by the key of its username or by id. */
export async function findUserRow(db: PrismaClient, key: { usernameKey: string } | { id: number }): Promise<UserRow | undefined> {
  const byName = 'usernameKey' in key;
  const { rows } = await sqlPool(db).query<{ id: number; username: string; hashed_password: string; disabled: boolean }>({
    name: byName ? 'find-user-by-key' : 'find-user-by-id',
    text: `SELECT id, username, hashed_password, disabled_at IS NOT NULL AS disabled FROM users WHERE ${byName ? 'username_key' : 'id'} = $1`,
    values: [byName ? key.usernameKey : key.id],
  });
  const row = rows[0];
  return row && { id: row.id, username: row.username, hashedPassword: row.hashed_password, disabled: row.disabled };
}

export interface NewUser {
  username: string;
  usernameKey: string;
  usernameSkeleton: string;
  hashedPassword: string;
  salt: string;
}

/** Inserts the user (a unique violation names `users_username_skeleton_key` for a look-alike); answers its id and name. */
export async function insertUser(db: Queryable, user: NewUser): Promise<{ id: number; username: string }> {
  const { rows } = await db.query({
    name: 'register-user',
    text: `INSERT INTO users (username, username_key, username_skeleton, hashed_password, salt, created_at) VALUES ($1, $2, $3, $4, $5, ${UTC_NOW}) RETURNING id, username`,
    values: [user.username, user.usernameKey, user.usernameSkeleton, user.hashedPassword, user.salt],
  });
  return rows[0] as { id: number; username: string };
}

/** A user as `auth users list` shows it. */
export interface UserListing extends Pick<User, 'id' | 'username' | 'createdAt' | 'disabledAt'> {
  /** Until when the login throttle's account counter (key `lockKeyOf(username)`) blocks, or null. */
  lockedUntil: Date | null;
  /** Unexpired access tokens. */
  activeTokens: number;
}

/** Every user ordered by username, with unexpired access tokens counted and the throttle's block under `lockKeyOf(username)`. */
export async function listUsersWithLocks(db: Transaction, lockKeyOf: (username: string) => string): Promise<UserListing[]> {
  const now = new Date();
  const users = await db.user.findMany({
    orderBy: { username: 'asc' },
    select: { id: true, username: true, createdAt: true, disabledAt: true, _count: { select: { accessTokens: { where: { expiresAt: { gt: now } } } } } },
  });
  const locks = await db.loginThrottle.findMany({
    where: { key: { in: users.map((user) => lockKeyOf(user.username)) }, blockedUntil: { gt: now } },
  });
  const lockedUntil = new Map(locks.map((lock) => [lock.key, lock.blockedUntil]));
  return users.map(({ _count, ...user }) => ({ ...user, lockedUntil: lockedUntil.get(lockKeyOf(user.username)) ?? null, activeTokens: _count.accessTokens }));
}

/** The user named exactly `username`, else the one whose username key is `key` (two unique lookups); null when neither. */
export async function findUserByNameOrKey(db: Transaction, username: string, key: string | undefined): Promise<{ id: number; disabledAt: Date | null } | null> {
  const select = { id: true, disabledAt: true } as const;
  return (await db.user.findUnique({ where: { username }, select })) ?? (key === undefined ? null : await db.user.findUnique({ where: { usernameKey: key }, select }));
}

/** Sets (a Date: sign-in refused) or clears (null) the user's `disabled_at`. */
export async function setUserDisabledAt(db: Transaction, id: number, disabledAt: Date | null): Promise<void> {
  await db.user.update({ where: { id }, data: { disabledAt } });
}

/** Deletes the user row (its tokens and grant records are the caller's to delete first: tokens.ts deleteTokensOf). */
export async function deleteUserRow(db: Transaction, id: number): Promise<void> {
  await db.user.delete({ where: { id } });
}
