/**
 * application/x-www-form-urlencoded.
 *
 * Decoding gives an object of strings: `+` becomes a space, percent escapes
 * are decoded, a key that appears once maps to a string and a repeated key
 * maps to an array of its strings in order (`a=1&a=2` → `{ a: ['1', '2'] }`).
 * Aqueduct always gives lists; single strings are what Koa users expect.
 * An invalid percent escape (`%zz`) is a malformed body.
 *
 * Encoding accepts an object whose values are strings, numbers, booleans or
 * arrays of them (repeated keys); anything else throws.
 */
import type { Codec } from './codec.ts';

export type FormValue = string | string[];

export class FormCodec implements Codec {
  decode(input: string | Buffer): Record<string, FormValue> {
    const text = typeof input === 'string' ? input : input.toString('utf8');
    const out: Record<string, FormValue> = {};
    for (const pair of text.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const key = unescape(eq === -1 ? pair : pair.slice(0, eq));
      const value = eq === -1 ? '' : unescape(pair.slice(eq + 1));
      const previous = Object.hasOwn(out, key) ? out[key] : undefined;
      const next = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
      // defineProperty: a `__proto__` key stays an ordinary own property.
      Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  encode(value: unknown): string {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new TypeError('a form body must be an object');
    }
    const params = new URLSearchParams();
    for (const [key, item] of Object.entries(value)) {
      for (const one of Array.isArray(item) ? item : [item]) params.append(key, scalar(key, one));
    }
    return params.toString();
  }
}

function unescape(text: string): string {
  return decodeURIComponent(text.replaceAll('+', ' '));
}

function scalar(key: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TypeError(`form value for '${key}' must be a string, number or boolean`);
}
