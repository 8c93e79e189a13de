/**
 * The users table: the password grant's and findAccount's reads (plain statements on the Prisma client's pool,
 * sqlPool) and registration's insert (the resource server). Sign-in and uniqueness go by the username's key
 * (@heroes/text-rules usernameKey); look-alikes share a skeleton (a unique index refuses the second).
 */
import { sqlPool } from '../client-pools.ts';
import type { PrismaClient } from '../generated/client.ts';
import type { Queryable } from '../sql-pool.ts';
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
