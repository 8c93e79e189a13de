/**
 * Step 2 of POST /register: at most `registerAddressLimit` registration
 * attempts per client address within `registerAddressWindowMs`, counted in
 * PostgreSQL (@heroes/db's address-window.ts, the counter the login throttle
 * of the authorization server uses), so every replica sees one count.
 *
 * Rules enforced here:
 * - the address is `ctx.ip`: the one client-address rule (http-kit's
 *   createClientAddress, TRUST_PROXY): the right-most X-Forwarded-For entry
 *   that is not a trusted proxy, never a value the client wrote; an IPv6
 *   client is counted by its /64 (the platform's addressBucket), as the login
 *   throttle counts it;
 * - every attempt that passed validation counts (it would cost a bcrypt
 *   hash), stored or not; a refused one is counted too, which keeps the
 *   window's end where it was;
 * - past the limit → 429 `{"error":"too many registrations from this
 *   address"}` with `Retry-After` (RFC 6585 section 4): the seconds left in
 *   the window, before any hashing.
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
