/**
 * oidc-provider's `findAccount`: accountId is String(users.id). Returns the
 * account with its username (used for the introspection `username` member).
 */
import { findUserRow, type PrismaClient } from '@heroes/db';
import type { Account, FindAccount } from 'oidc-provider';

export interface HeroesAccount extends Account {
  username: string;
}

export function toAccount(user: { id: number; username: string }): HeroesAccount {
  const accountId = String(user.id);
  return {
    accountId,
    username: user.username,
    claims: () => ({ sub: accountId, preferred_username: user.username }),
  };
}

export function createFindAccount(db: PrismaClient): FindAccount {
  return async function findAccount(_ctx, sub) {
    if (!/^\d{1,10}$/.test(sub)) return undefined;
    const id = Number(sub);
    if (id > 2_147_483_647) return undefined;
    const user = await findUserRow(db, { id });
    // A disabled user has no account: the refresh and code grants then fail (invalid_grant).
    return user && !user.disabled ? toAccount(user) : undefined;
  };
}
