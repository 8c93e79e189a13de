/**
 * The query of GET /heroes → ListQuery: `name` a case-insensitive substring (NUL → 400), `limit` 1–1000, `after` an
 * id ≥ 0 (the `Link: rel="next"` carries it). Repeated → 400 `multiple values not expected`, malformed → 400
 * `invalid value for query value 'x'`; other keys ignored.
 */
import type { Context } from 'koa';
import { BadRequestError, type HttpError } from '@heroes/http-kit';

const MAX_PAGE_SIZE = 1000;
const MAX_ID = 2_147_483_647;

export interface ListQuery {
  nameContains?: string;
  /** Page size; undefined → everything. */
  limit?: number;
  /** Start after this id (0: from the first hero). */
  after: number;
}

export function readListQuery(ctx: Context): ListQuery {
  const name = single(ctx, 'name');
  if (name?.includes('\u0000')) throw invalidValue('name');
  const limit = integerParam(ctx, 'limit', 1, MAX_PAGE_SIZE);
  // An id past the int4 key is valid: nothing comes after it.
  const after = integerParam(ctx, 'after', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  return { nameContains: name, limit, after: Math.min(after, MAX_ID) };
}

function single(ctx: Context, key: string): string | undefined {
  const value = ctx.query[key];
  if (Array.isArray(value)) throw new BadRequestError(`multiple values not expected for query value '${key}'`);
  return value;
}

function integerParam(ctx: Context, key: string, min: number, max: number): number | undefined {
  const raw = single(ctx, key);
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,16}$/.test(raw)) throw invalidValue(key);
  const value = Number(raw);
  if (value < min || value > max) throw invalidValue(key);
  return value;
}

function invalidValue(key: string): HttpError {
  return new BadRequestError(`invalid value for query value '${key}'`, { code: 'invalid_query_value' });
}
