/**
 * Serializable resources (docs/http.md): per resource, its input-only fields (read, never written: `password`) and
 * output-omitted fields (never written unless `include`d, never accepted: `hashedPassword`). toMap() gives plain
 * objects for `ctx.body` (BigInt → number, or string beyond 2^53); fromRequest() applies the key filters and
 * refuses output-omitted keys with 400.
 */
import { filterKeys, type KeyFilters } from './filter-keys.ts';

export interface ResourceDefinition {
  inputOnly?: readonly string[];
  outputOmitted?: readonly string[];
}

export interface ToMapOptions {
  /** Output-omitted fields to write anyway. */
  include?: readonly string[];
}

export interface Resource {
  readonly inputOnly: readonly string[];
  readonly outputOmitted: readonly string[];
  toMap(value: object, options?: ToMapOptions): Record<string, unknown>;
  toMap(value: readonly object[], options?: ToMapOptions): Record<string, unknown>[];
  fromRequest<T = Record<string, unknown>>(value: unknown, filters?: KeyFilters): T;
}

export function defineResource(definition: ResourceDefinition = {}): Resource {
  const inputOnly = Object.freeze([...(definition.inputOnly ?? [])]);
  const outputOmitted = Object.freeze([...(definition.outputOmitted ?? [])]);

  function mapOne(value: object, options: ToMapOptions = {}): Record<string, unknown> {
    if (typeof value !== 'object' || value === null) throw new TypeError('toMap expects an object');
    const include = new Set(options.include ?? []);
    const hidden = new Set([...inputOnly, ...outputOmitted.filter((key) => !include.has(key))]);
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (hidden.has(key)) continue;
      Object.defineProperty(out, key, { value: plainBigInt(field), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  function toMap(value: object, options?: ToMapOptions): Record<string, unknown>;
  function toMap(value: readonly object[], options?: ToMapOptions): Record<string, unknown>[];
  function toMap(value: object | readonly object[], options?: ToMapOptions) {
    return Array.isArray(value) ? value.map((item: object) => mapOne(item, options)) : mapOne(value, options);
  }

  function fromRequest<T = Record<string, unknown>>(value: unknown, filters: KeyFilters = {}): T {
    return filterKeys<T>(value, { ...filters, reject: [...outputOmitted, ...(filters.reject ?? [])] });
  }

  return Object.freeze({ inputOnly, outputOmitted, toMap, fromRequest });
}

function plainBigInt(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  const asNumber = Number(value);
  return Number.isSafeInteger(asNumber) ? asNumber : value.toString();
}
