/**
 * Key filtering of request objects (docs/http.md, "Request bodies"), on an object or each of an array: a `reject`
 * key → 400 `entity validation failed` naming it; `ignore`d keys and keys outside `accept` dropped; `require`
 * counts every key sent, even dropped, and lists the missing; not an object → 400 `request entity was unexpected
 * type`. Returns a filtered copy.
 */
import { checkShape, isPlainObject } from '../body/check-shape.ts';
import { BadRequestError } from '../errors/client-errors.ts';
import type { HttpError } from '../errors/http-error.ts';

export interface KeyFilters {
  accept?: readonly string[] | undefined;
  ignore?: readonly string[] | undefined;
  reject?: readonly string[] | undefined;
  require?: readonly string[] | undefined;
}

export const VALIDATION_FAILED = 'entity validation failed';

export function filterKeys<T = Record<string, unknown>>(value: unknown, filters: KeyFilters): T {
  if (Array.isArray(value)) return value.map((item) => filterObject(item, filters)) as T;
  return filterObject(value, filters) as T;
}

/** Whether any filter list is given (empty lists count: `accept: []` drops every key). */
export function hasKeyFilters(filters: KeyFilters): boolean {
  return filters.accept !== undefined || filters.ignore !== undefined
    || filters.reject !== undefined || filters.require !== undefined;
}

function validationError(reason: string): HttpError {
  return new BadRequestError(VALIDATION_FAILED, { code: 'entity_validation_failed', details: { reasons: [reason] } });
}

function filterObject(value: unknown, filters: KeyFilters): Record<string, unknown> {
  if (!isPlainObject(value)) checkShape(value, 'object');
  const input = value as Record<string, unknown>;
  const accept = filters.accept ? new Set(filters.accept) : undefined;
  const ignore = new Set(filters.ignore ?? []);
  const reject = new Set(filters.reject ?? []);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (reject.has(key)) throw validationError(`invalid input key '${key}'`);
    if (ignore.has(key) || (accept && !accept.has(key))) continue;
    Object.defineProperty(out, key, { value: input[key], enumerable: true, writable: true, configurable: true });
  }
  const missing = (filters.require ?? []).filter((key) => !Object.hasOwn(input, key));
  if (missing.length > 0) throw validationError(`missing required input key(s): '${missing.join(', ')}'`);
  return out;
}
