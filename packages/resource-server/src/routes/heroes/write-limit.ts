/**
 * Hero creates and updates (POST /heroes, PUT /heroes[/:id]) per user
 * within a window (docs/heroes-api.md, "Write limits"): at most
 * `heroWriteLimit` per `heroWriteWindowMs`, counted in PostgreSQL
 * (@heroes/db's countInWindow, the counter of the login throttle and the
 * registration limit), so every replica and worker shares one count.
 *
 * Rules enforced here:
 * - counted per user (the token's `sub`); a token without a user (a
 *   client's own token) counts for its client;
 * - every write attempt that passed the scope check counts, done or not;
 *   a refused one counts too, which keeps the window's end where it was;
 * - a counted write's answer carries the RateLimit-Policy and RateLimit fields
 *   of draft-ietf-httpapi-ratelimit-headers (policy "hero-writes": quota
 *   `q`, window `w` seconds; `r` left, `t` seconds to the window's end) when it succeeds or is
 *   refused here (http-kit's error answers carry only their error's headers);
 * - past the limit → 429 `{"error":"too many hero writes"}` with
 *   Retry-After (RFC 6585 section 4), before the body is read.
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
