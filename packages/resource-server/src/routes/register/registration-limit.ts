/**
 * Step 2 of POST /register: at most `registerAddressLimit` attempts per client address within
 * `registerAddressWindowMs`, counted in PostgreSQL for every replica. The address is `ctx.ip` under
 * @heroes/platform's client address rule, an IPv6 client by its /64; every validated attempt counts, refused ones
 * too; past the limit → 429 with Retry-After (RFC 6585 section 4), before any hashing.
 */
import type { Context } from 'koa';
import { countInWindow } from '@heroes/db/pg';
import { TooManyRequestsError } from '@heroes/http-kit';
import { addressBucket } from '@heroes/platform';
import type { Database } from '../../data/create-pool.ts';

export interface RegistrationLimit {
  registerAddressLimit: number;
  registerAddressWindowMs: number;
}

/**
 * Usage:
 *   await countRegistration(ctx, db, { registerAddressLimit: 100, registerAddressWindowMs: 900_000 });
 */
export async function countRegistration(ctx: Context, db: Database, limit: RegistrationLimit): Promise<void> {
  const { count, resetInMs } = await countInWindow(db, `register:${addressBucket(ctx.ip)}`, limit.registerAddressWindowMs);
  if (count <= limit.registerAddressLimit) return;
  throw new TooManyRequestsError('too many registrations from this address', {
    code: 'too_many_registrations',
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(resetInMs / 1000))) },
  });
}
