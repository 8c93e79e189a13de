/**
 * application/x-www-form-urlencoded, the one form decoder of both servers (WHATWG URL's parsing): `+` is a space,
 * percent escapes are bytes decoded in the body's charset (UTF-8 strictly), an invalid escape is malformed; a key
 * once → a string, repeated → an array in order, `__proto__` an own property; over `maxParameters` (1,000) → 413
 * before decoding. Linear time and memory: one pass over the bytes, repeated keys appended in place.
 */
import type { Codec } from './codec.ts';
import { bytesToText, escapedBytesToText, textToBytes } from './charset.ts';
import { DEFAULTS } from '../defaults.ts';
import { PayloadTooLargeError } from '../errors/client-errors.ts';

export type FormValue = string | string[];

export interface FormCodecOptions {
  /** Most `key=value` pairs in one body. Default DEFAULTS.maxFormParameters (1,000). */
  maxParameters?: number;
}

const TOO_MANY_FORM_PARAMETERS = 'too many form parameters';
const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;
const SPACE = 0x20;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Charsets in which `&`, `=`, `+`, `%`, hex digits are their ASCII bytes and never part of another character. */
const ASCII_COMPATIBLE = /^(?:utf-?8|us-ascii|ascii|latin-?1|iso-?8859-\d+|(?:windows|cp)-?125\d)$/i;

export class FormCodec implements Codec {
  readonly maxParameters: number;
  /** readBody hands this codec the body's bytes (with the charset) rather than text. */
  readonly readsBytes = true;

  constructor({ maxParameters = DEFAULTS.maxFormParameters }: FormCodecOptions = {}) {
    if (!Number.isSafeInteger(maxParameters) || maxParameters < 1) throw new TypeError('maxParameters must be a positive integer');
    this.maxParameters = maxParameters;
  }

  decode(input: string | Buffer, charset = 'utf-8'): Record<string, FormValue> {
    if (!ASCII_COMPATIBLE.test(charset)) {
      // UTF-16 and the like: split and unescaped as text, in one pass too.
      const text = typeof input === 'string' ? input : bytesToText(input, charset);
      return this.#collect(splitPairs(text, this.maxParameters), (part) => unescapeText(part, charset));
    }
    let bytes = typeof input === 'string' ? textToBytes(input, charset) : input;
    // A leading UTF-8 BOM marks the body's encoding (an escaped one is content).
    if (bytes.subarray(0, 3).equals(UTF8_BOM) && /^utf-?8$/i.test(charset)) bytes = bytes.subarray(3);
    return this.#collect(splitPairs(bytes, this.maxParameters), (part) => unescapeBytes(part, charset));
  }

  #collect<Part extends Buffer | string>(pairs: Part[], unescape: (part: Part) => string): Record<string, FormValue> {
    const out: Record<string, FormValue> = {};
    for (const pair of pairs) {
      const eq = typeof pair === 'string' ? pair.indexOf('=') : pair.indexOf(EQUALS);
      const key = unescape(eq === -1 ? pair : (pair.slice(0, eq) as Part));
      const value = eq === -1 ? '' : unescape(pair.slice(eq + 1) as Part);
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

/** The non-empty `&`-separated parts (a Buffer's are views, not copies); throws 413 at part `max + 1`. */
function splitPairs<Body extends Buffer | string>(body: Body, max: number): Body[] {
  const separator = typeof body === 'string' ? '&' : AMPERSAND;
  const pairs: Body[] = [];
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf(separator as never, start);
    if (end === -1) end = body.length;
    if (end > start) {
      if (pairs.length === max) throw new PayloadTooLargeError(TOO_MANY_FORM_PARAMETERS, { code: 'too_many_parameters' });
      pairs.push(body.slice(start, end) as Body);
    }
    start = end + 1;
  }
  return pairs;
}

/** Hex digit value of each byte, -1 for any other byte. */
const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX[0x30 + i] = i;
for (let i = 0; i < 6; i++) HEX[0x41 + i] = HEX[0x61 + i] = 10 + i;

/** One name or value: `+` → space and `%XX` → its byte in one pass, then decoded in `charset`. */
function unescapeBytes(part: Buffer, charset: string): string {
  if (part.indexOf(PLUS) === -1 && part.indexOf(PERCENT) === -1) return escapedBytesToText(part, charset);
  const out = Buffer.allocUnsafe(part.length);
  let length = 0;
  for (let i = 0; i < part.length; i++) {
    const byte = part[i]!;
    if (byte === PLUS) {
      out[length++] = SPACE;
    } else if (byte === PERCENT) {
      const high = i + 2 < part.length ? HEX[part[i + 1]!]! : -1; // i + 2 past the end: a cut escape
      const low = high === -1 ? -1 : HEX[part[i + 2]!]!;
      if (low === -1) throw invalidEscape(part.subarray(0, 40).toString('latin1'));
      out[length++] = (high << 4) | low;
      i += 2;
    } else {
      out[length++] = byte;
    }
  }
  return escapedBytesToText(out.subarray(0, length), charset);
}

/**
 * unescapeBytes for a body in a charset that is not ASCII-compatible, as
 * text: code units copied, `+` → space, each run of escapes decoded in
 * `charset` (never longer than the escapes it replaces).
 */
function unescapeText(part: string, charset: string): string {
  if (!part.includes('+') && !part.includes('%')) return part;
  const out = new Uint16Array(part.length);
  let length = 0;
  for (let i = 0; i < part.length; i++) {
    const unit = part.charCodeAt(i);
    if (unit === PLUS) {
      out[length++] = SPACE;
    } else if (unit === PERCENT) {
      const run: number[] = [];
      for (; i < part.length && part.charCodeAt(i) === PERCENT; i += 3) {
        const high = hexDigit(part.charCodeAt(i + 1));
        const low = high === -1 ? -1 : hexDigit(part.charCodeAt(i + 2));
        if (low === -1) throw invalidEscape(part.slice(0, 40));
        run.push((high << 4) | low);
      }
      i--;
      const decoded = escapedBytesToText(Buffer.from(run), charset);
      for (let k = 0; k < decoded.length; k++) out[length++] = decoded.charCodeAt(k);
    } else {
      out[length++] = unit;
    }
  }
  const chunks: string[] = [];
  for (let at = 0; at < length; at += 8192) chunks.push(String.fromCharCode(...out.subarray(at, Math.min(length, at + 8192))));
  return chunks.join('');
}

function hexDigit(unit: number): number {
  return unit < 256 ? HEX[unit]! : -1;
}

function invalidEscape(start: string): URIError {
  return new URIError(`invalid percent escape in '${start}'`);
}

function scalar(key: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TypeError(`form value for '${key}' must be a string, number or boolean`);
}
