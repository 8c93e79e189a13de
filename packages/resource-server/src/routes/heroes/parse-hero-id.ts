/**
 * Step: the `:id` path variable → `ctx.state.heroId`.
 * - decimal digits only, 1 to 2147483647 (the int4 primary key range);
 *   anything else → 400 `invalid value for path value 'id'` (Aqueduct's text).
 */
import type { Middleware } from 'koa';
import { BadRequestError } from '@heroes/http-kit';

const MAX_ID = 2_147_483_647;

export interface HeroIdState {
  heroId: number;
}

export function parseHeroId(raw: string | undefined): number {
  if (raw === undefined || !/^[0-9]{1,10}$/.test(raw)) throw invalidId();
  const id = Number(raw);
  if (id < 1 || id > MAX_ID) throw invalidId();
  return id;
}

export const readHeroId: Middleware = async function readHeroId(ctx, next) {
  (ctx.state as HeroIdState).heroId = parseHeroId((ctx.params as Record<string, string> | undefined)?.id);
  await next();
};

function invalidId(): BadRequestError {
  return new BadRequestError(`invalid value for path value 'id'`, { code: 'invalid_path_value' });
}
