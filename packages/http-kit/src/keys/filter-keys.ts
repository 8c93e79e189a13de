/**
 * Key filtering for request objects, as Aqueduct's `Serializable.read`
 * (Aqueduct's `Serializable.read`; docs/http.md, "Request bodies"). Applies to an object or to each element of
 * an array of objects, and returns a filtered copy.
 *
 * Rules, for each key of the input:
 * 1. a key in `reject` → 400 `{"error":"entity validation failed","reasons":["invalid input key 'k'"]}`
 *    (only the first such key is reported);
 * 2. a key in `ignore`, or missing from a given `accept` list, is dropped;
 * 3. every key present counts as supplied for `require`, even if dropped; keys
 *    still missing → 400 with reasons `["missing required input key(s): 'a, b'"]`.
 * A value that is not an object (or array of objects) → 400 `request entity was unexpected type`.
 *
 * Usage:
 * ```ts
 * const hero = filterKeys(body, { ignore: ['id'], require: ['name'] });
 * ```
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

export function validationError(reason: string): HttpError {
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
