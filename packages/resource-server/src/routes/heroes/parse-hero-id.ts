/**
 * Step: `:id` → `ctx.state.heroId`. Not decimal digits → 400 `invalid value for path value 'id'`; an integer no hero
 * can have (≤ 0, beyond int4) → 404 at once, without a query.
 */
import type { Middleware } from 'koa';
import { BadRequestError, NotFoundError, type HttpError } from '@heroes/http-kit';

const MAX_ID = 2_147_483_647;

export interface HeroIdState {
  heroId: number;
}

/** The id, or `undefined` for an integer that cannot be a hero id. Throws 400 for a non-integer. */
export function parseHeroId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^-?[0-9]+$/.test(raw)) throw invalidId();
  return existingId(Number(raw));
}

/** `value` when a hero can have that id (an integer 1–2147483647), else undefined. */
export function existingId(value: number): number | undefined {
  return Number.isInteger(value) && value >= 1 && value <= MAX_ID ? value : undefined;
}

export const readHeroId: Middleware = async function readHeroId(ctx, next) {
  const id = parseHeroId((ctx.params as Record<string, string> | undefined)?.id);
  if (id === undefined) throw new NotFoundError();
  (ctx.state as HeroIdState).heroId = id;
  await next();
};

function invalidId(): HttpError {
  return new BadRequestError(`invalid value for path value 'id'`, { code: 'invalid_path_value' });
}
