/**
 * application/x-www-form-urlencoded: the one form decoder of both servers.
 *
 * Decoding (WHATWG URL, "application/x-www-form-urlencoded parsing"):
 * - the body is text already decoded in its charset (readBody does that);
 *   it is split at `&` and `=`; `+` is a space;
 * - each run of percent escapes is turned into bytes, which are decoded in
 *   the same charset: `p%E4ss` with charset iso-8859-1 is `päss`, as a
 *   browser submits a form with accept-charset latin1; UTF-8 escapes are
 *   decoded strictly (`%E4` alone in a UTF-8 body is malformed);
 * - an invalid escape (`%zz`, a lone `%`) is a malformed body (throws);
 * - a key that appears once maps to a string, a repeated key to an array of
 *   its strings in order (`a=1&a=2` → `{ a: ['1', '2'] }`); Aqueduct always
 *   gives lists, single strings are what Koa users expect; `__proto__`
 *   stays an ordinary own property;
 * - at most `maxParameters` pairs (default 1,000, as Node's querystring):
 *   one more → 413 `too many form parameters`, found while scanning, before
 *   anything is decoded;
 * - linear time and memory in the body size: the body is scanned once,
 *   repeated keys are appended in place (never copied per repeat).
 *
 * Encoding accepts an object whose values are strings, numbers, booleans or
 * arrays of them (repeated keys); anything else throws.
 *
 * Usage: `new FormCodec().decode('a=1&b=p%E4ss', 'iso-8859-1')` → `{ a: '1', b: 'päss' }`
 */
import type { Codec } from './codec.ts';
import { escapedBytesToText } from './charset.ts';
import { DEFAULTS } from '../defaults.ts';
import { PayloadTooLargeError } from '../errors/client-errors.ts';

export type FormValue = string | string[];

export interface FormCodecOptions {
  /** Most `key=value` pairs in one body. Default DEFAULTS.maxFormParameters (1,000). */
  maxParameters?: number;
}

export const TOO_MANY_FORM_PARAMETERS = 'too many form parameters';
const INVALID_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

export class FormCodec implements Codec {
  readonly maxParameters: number;

  constructor({ maxParameters = DEFAULTS.maxFormParameters }: FormCodecOptions = {}) {
    if (!Number.isSafeInteger(maxParameters) || maxParameters < 1) throw new TypeError('maxParameters must be a positive integer');
    this.maxParameters = maxParameters;
  }

  decode(input: string | Buffer, charset = 'utf-8'): Record<string, FormValue> {
    const text = typeof input === 'string' ? input : input.toString('utf8');
    const pairs = splitPairs(text, this.maxParameters);
    const out: Record<string, FormValue> = {};
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      const key = unescape(eq === -1 ? pair : pair.slice(0, eq), charset);
      const value = eq === -1 ? '' : unescape(pair.slice(eq + 1), charset);
      const previous = Object.hasOwn(out, key) ? out[key] : undefined;
      if (Array.isArray(previous)) {
        previous.push(value);
        continue;
      }
      const next = previous === undefined ? value : [previous, value];
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

/** The non-empty `&`-separated parts; throws 413 at part `max + 1` (no array of empty parts is built). */
function splitPairs(text: string, max: number): string[] {
  const pairs: string[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) {
      if (pairs.length === max) {
        throw new PayloadTooLargeError(TOO_MANY_FORM_PARAMETERS, { code: 'too_many_parameters' });
      }
      pairs.push(text.slice(start, end));
    }
    start = end + 1;
  }
  return pairs;
}

function unescape(part: string, charset: string): string {
  const spaced = part.includes('+') ? part.replaceAll('+', ' ') : part;
  if (!spaced.includes('%')) return spaced;
  if (INVALID_ESCAPE.test(spaced)) throw new URIError(`invalid percent escape in '${spaced.slice(0, 40)}'`);
  return spaced.replace(ESCAPE_RUN, (run) => escapedBytesToText(Buffer.from(run.replaceAll('%', ''), 'hex'), charset));
}

function scalar(key: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TypeError(`form value for '${key}' must be a string, number or boolean`);
}
