/**
 * User and token administration (`auth users …`, `auth tokens revoke`), plain functions over @heroes/db's repositories: each change,
 * its audit event and the revocation notice one transaction (NOTIFY goes on commit); disabling a user deletes all
 * their tokens, codes and grants (nothing of theirs is active again) and refuses sign-in; an unknown name is an
 * error naming it, nothing written.
 */
import { usernameKey } from '@heroes/text-rules/username';
import {
  clearAccountCounters, deleteGrantsOf, deleteTokensOf, deleteUserRow, findUserByNameOrKey, inTransaction, isClientRegistered, listUsersWithLocks,
  setUserDisabledAt, type PrismaClient, type Transaction, type UserListing,
} from '@heroes/db';
import type { AuditEvent } from '@heroes/db';
import { clientNotFound } from '../clients/client-registry-error.ts';
import { notifyTokensRevoked } from '../notify/revocation-notifier.ts';
import { accountSubject } from '../throttle/login-throttle.ts';
import { auditStatement } from '../audit/prisma-audit.ts';

/** An unknown username: `User 'x' does not exist.` */
export class UserNotFoundError extends Error {
  override name = 'UserNotFoundError';
  readonly code = 'user_not_found';

  constructor(username: string) {
    super(`User '${username}' does not exist.`);
  }
}

/** A user as `auth users list` shows it (db's listing; the lock is the throttle's account counter). */
export type UserSummary = UserListing;

/** What went with a revocation. */
export interface Revoked {
  accessTokens: number;
  refreshTokens: number;
  authorizationCodes: number;
}

type Tx = Transaction;

/** Every user, ordered by username. */
export function listUsers(db: PrismaClient): Promise<UserSummary[]> {
  return listUsersWithLocks(db, accountSubject);
}

/** Refuses the user's sign-in and revokes everything issued to them; `changed` false when already disabled. */
export async function disableUser(db: PrismaClient, username: string): Promise<{ changed: boolean; revoked: Revoked }> {
  return inTransaction(db, async (tx) => {
    const user = await findUser(tx, username);
    if (user.disabledAt) return { changed: false, revoked: none() };
    await setUserDisabledAt(tx, user.id, new Date());
    const revoked = await revokeUserRows(tx, user.id);
    await auditStatement(tx, operatorEvent('user.disabled', { username }, `sign-in refused; ${describeRevoked(revoked)}`));
    return { changed: true, revoked };
  });
}

/** Lets a disabled user sign in again; `changed` false when not disabled. */
export async function enableUser(db: PrismaClient, username: string): Promise<{ changed: boolean }> {
  return inTransaction(db, async (tx) => {
    const user = await findUser(tx, username);
    if (!user.disabledAt) return { changed: false };
    await setUserDisabledAt(tx, user.id, null);
    await auditStatement(tx, operatorEvent('user.enabled', { username }));
    return { changed: true };
  });
}

/** Clears the login throttle of the account (from every address); `cleared` counts the counters removed. */
export async function unlockUser(db: PrismaClient, username: string): Promise<{ cleared: number }> {
  return inTransaction(db, async (tx) => {
    await findUser(tx, username);
    const subject = accountSubject(username);
    const count = await clearAccountCounters(tx, subject);
    await auditStatement(tx, operatorEvent('user.unlocked', { username }, `${count} throttle counter(s) cleared`));
    // Edges that answer repeats of this account's refused logins themselves stop at once (on commit).
    await notifyTokensRevoked(tx, { unlockedAccount: subject });
    return { cleared: count };
  });
}

/** Deletes the user and everything issued to them. */
export async function deleteUser(db: PrismaClient, username: string): Promise<{ revoked: Revoked }> {
  return inTransaction(db, async (tx) => {
    const user = await findUser(tx, username);
    const revoked = await revokeUserRows(tx, user.id);
    await deleteUserRow(tx, user.id);
    await auditStatement(tx, operatorEvent('user.deleted', { username }, describeRevoked(revoked)));
    return { revoked };
  });
}

/** Revokes every token, code and grant of the user. */
export async function revokeUserTokens(db: PrismaClient, username: string): Promise<Revoked> {
  return inTransaction(db, async (tx) => {
    const user = await findUser(tx, username);
    const revoked = await revokeUserRows(tx, user.id);
    await auditStatement(tx, operatorEvent('token.revoked', { username }, `every grant of the user: ${describeRevoked(revoked)}`));
    return revoked;
  });
}

/** Revokes every token, code and grant issued to the client (the client stays registered). */
export async function revokeClientTokens(db: PrismaClient, clientId: string): Promise<Revoked> {
  return inTransaction(db, async (tx) => {
    if (!(await isClientRegistered(tx, clientId))) throw clientNotFound(clientId);
    const revoked = await deleteTokensOf(tx, { clientId });
    await deleteGrantsOf(tx, { clientId });
    await notifyTokensRevoked(tx, { clientId });
    await auditStatement(tx, operatorEvent('token.revoked', { clientId }, `every grant of the client: ${describeRevoked(revoked)}`));
    return revoked;
  });
}

/** The user named exactly so, else the one whose name has that key (`alice` finds `Alice`: docs/oauth.md "Usernames"). */
async function findUser(tx: Tx, username: string) {
  const user = await findUserByNameOrKey(tx, username, usernameKey(username));
  if (!user) throw new UserNotFoundError(username);
  return user;
}

/** Deletes the user's tokens, codes and grant records, and tells resource servers (on commit). */
async function revokeUserRows(tx: Tx, userId: number): Promise<Revoked> {
  const revoked = await deleteTokensOf(tx, { userId });
  await deleteGrantsOf(tx, { accountId: String(userId) });
  await notifyTokensRevoked(tx, { userId: String(userId) });
  return revoked;
}

function none(): Revoked {
  return { accessTokens: 0, refreshTokens: 0, authorizationCodes: 0 };
}

export function describeRevoked({ accessTokens, refreshTokens, authorizationCodes }: Revoked): string {
  return `${accessTokens} access token(s), ${refreshTokens} refresh token(s), ${authorizationCodes} code(s) revoked`;
}

/** An event an operator caused with the `auth` CLI (no request: no address or request id). */
function operatorEvent(type: AuditEvent['type'], who: Pick<AuditEvent, 'username' | 'clientId'>, reason?: string): AuditEvent {
  return { type, ...who, reason: reason ? `by an operator (auth CLI): ${reason}` : 'by an operator (auth CLI)' };
}
