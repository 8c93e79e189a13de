/**
 * Reads a form body (application/x-www-form-urlencoded) of the auth
 * server's own routes and of the provider's endpoints, through http-kit.
 *
 * Rules enforced here:
 * - through http-kit's readBody: the configured size limit (MAX_BODY_BYTES;
 *   over it → 413 `entity length exceeds maximum`, with or without
 *   Content-Length), another media type → 415, a Content-Length mismatch
 *   → 400, an empty body → 400 `missing required body` when required;
 * - the charset of the Content-Type decides, else utf-8 (the registered
 *   default for forms); one iconv-lite does not know → 415
 *   `invalid charset '<x>'`, checked before the body is read (as http-kit);
 * - a malformed body (bad escape, invalid UTF-8) → 400
 *   `request entity could not be decoded` (as http-kit);
 * - the decoding itself is decode-form.ts (percent escapes are bytes in the
 *   declared charset).
 *
 * Usage: `const form = await readForm(ctx); // { username: 'bob', ... }`
 */
import type { Context } from 'koa';
import { BadRequestError, readBody, UnsupportedMediaTypeError, type FormValue } from '@heroes/http-kit';
import { decodeForm, isKnownCharset } from './decode-form.ts';

export const FORM = 'application/x-www-form-urlencoded';
const DEFAULT_CHARSET = 'utf-8';

export interface ReadFormOptions {
  /** Default true: an empty body → 400; false: undefined. */
  required?: boolean;
}

export async function readForm(ctx: Context, { required = true }: ReadFormOptions = {}): Promise<Record<string, FormValue> | undefined> {
  const charset = ctx.is(FORM) ? ctx.request.charset : '';
  if (charset !== '' && !isKnownCharset(charset)) {
    throw new UnsupportedMediaTypeError(`invalid charset '${charset}'`, { code: 'invalid_charset' });
  }
  const bytes = (await readBody(ctx, { expect: 'bytes', required, contentTypes: [FORM] })) as Buffer | undefined;
  if (bytes === undefined) return undefined;
  try {
    return decodeForm(bytes, charset || DEFAULT_CHARSET);
  } catch (cause) {
    throw new BadRequestError('request entity could not be decoded', { cause, code: 'undecodable_entity' });
  }
}
