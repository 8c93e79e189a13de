/**
 * Hero creates and updates per user within a window (docs/heroes-api.md, "Write limits"), counted in PostgreSQL so
 * every replica shares one count; a user-less token counts for its client. Every attempt past the scope check
 * counts, refused ones too; answers carry RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers);
 * past the limit → 429 with Retry-After (RFC 6585 section 4) before the body is read.
 */
import type { Middleware } from 'koa';
import { countInWindow, type Queryable } from '@heroes/db/pg';
import { TooManyRequestsError } from '@heroes/http-kit';
import type { AuthState } from '../../auth/bearer-guard.ts';

export interface HeroWriteLimit {
  heroWriteLimit: number;
  heroWriteWindowMs: number;
}

const POLICY = 'hero-writes';

/**
 * Usage:
 *   router.post('/heroes', bearerGuard, write, limitHeroWrites(db, { heroWriteLimit: 300, heroWriteWindowMs: 60_000 }), createHero);
 */
export function limitHeroWrites(db: Queryable, limit: HeroWriteLimit): Middleware {
  const quota = limit.heroWriteLimit;
  const policy = `"${POLICY}";q=${quota};w=${Math.ceil(limit.heroWriteWindowMs / 1000)}`;
  return async function countHeroWrite(ctx, next) {
    const { sub, clientId } = (ctx.state as AuthState).auth;
    const writer = sub !== undefined ? `user:${sub}` : `client:${clientId ?? ''}`;
    const { count, resetInMs } = await countInWindow(db, `${POLICY}:${writer}`, limit.heroWriteWindowMs);
    const resetSeconds = Math.max(1, Math.ceil(resetInMs / 1000));
    const fields = {
      'RateLimit-Policy': policy,
      RateLimit: `"${POLICY}";r=${Math.max(0, quota - count)};t=${resetSeconds}`,
    };
    if (count > quota) {
      throw new TooManyRequestsError('too many hero writes', { code: 'too_many_writes', headers: { ...fields, 'Retry-After': String(resetSeconds) } });
    }
    ctx.set(fields);
    await next();
  };
}
