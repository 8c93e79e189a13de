/**
 * application/x-www-form-urlencoded bytes → an object of strings, in the
 * charset the Content-Type declares (docs/http.md, "Request bodies").
 *
 * Rules enforced here:
 * - the bytes are decoded in the charset first (UTF-8 strictly: invalid
 *   sequences throw, a leading BOM is dropped), then split at `&` and `=`;
 * - `+` is a space; each run of percent escapes is turned into bytes, which
 *   are decoded in the same charset: `p%E4ss` with charset iso-8859-1 is
 *   `päss`, as a browser submits a form with accept-charset latin1
 *   (WHATWG URL, application/x-www-form-urlencoded parsing);
 * - an invalid escape (`%zz`, a lone `%`) or escaped bytes that are not
 *   valid UTF-8 in a UTF-8 body throw (a malformed body);
 * - a key that appears once gives a string, a repeated key an array of its
 *   strings in order (as http-kit's FormCodec); `__proto__` stays an
 *   ordinary key;
 * - a key or value with a lone UTF-16 surrogate (only a UTF-16 body can
 *   carry one) throws, as http-kit refuses such bodies: the string has no
 *   UTF-8 form.
 *
 * http-kit's FormCodec decodes percent escapes as UTF-8 whatever the charset,
 * so a latin1 `%E4` is malformed there; the auth server needs the browser
 * behaviour for its forms (login form, token endpoint), hence this decoder.
 *
 * Usage: `decodeForm(Buffer.from('a=1&b=p%E4ss'), 'iso-8859-1')` → `{ a: '1', b: 'päss' }`
 */
import iconv from 'iconv-lite';
import { isWellFormedText, type FormValue } from '@heroes/http-kit';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const strictUtf8KeepBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const INVALID_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** True when iconv-lite (which http-kit uses too) knows `charset`. */
export function isKnownCharset(charset: string): boolean {
  return iconv.encodingExists(charset);
}

export function decodeForm(bytes: Buffer, charset: string): Record<string, FormValue> {
  const text = toText(bytes, charset);
  const out: Record<string, FormValue> = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = unescape(eq === -1 ? pair : pair.slice(0, eq), charset);
    const value = eq === -1 ? '' : unescape(pair.slice(eq + 1), charset);
    const previous = Object.hasOwn(out, key) ? out[key] : undefined;
    const next = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function unescape(part: string, charset: string): string {
  const spaced = part.replaceAll('+', ' ');
  if (INVALID_ESCAPE.test(spaced)) throw new URIError(`invalid percent escape in '${spaced.slice(0, 40)}'`);
  const decoded = spaced.replace(ESCAPE_RUN, (run) => toText(Buffer.from(run.replaceAll('%', ''), 'hex'), charset, false));
  if (!isWellFormedText(decoded)) throw new URIError('lone UTF-16 surrogate in a form value');
  return decoded;
}

/** A whole body drops a leading BOM (as http-kit); escaped bytes keep it. */
function toText(bytes: Buffer, charset: string, stripBOM = true): string {
  const name = charset.toLowerCase();
  if (name === 'utf-8' || name === 'utf8') return (stripBOM ? strictUtf8 : strictUtf8KeepBom).decode(bytes);
  return iconv.decode(bytes, charset, { stripBOM });
}
