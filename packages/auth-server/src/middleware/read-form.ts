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
 *   default for forms); one the server does not know → 415
 *   `invalid charset '<x>'`, checked before the body is read;
 * - decoding is http-kit's FormCodec, the one form decoder of both servers:
 *   percent escapes are bytes in the declared charset (a browser's latin1
 *   login form works), a malformed body (bad escape, invalid UTF-8, a lone
 *   surrogate) → 400 `request entity could not be decoded`, more than
 *   1,000 parameters → 413 `too many form parameters`, linear time.
 *
 * Usage: `const form = await readForm(ctx); // { username: 'bob', ... }`
 */
import type { Context } from 'koa';
import { readBody, type FormValue } from '@heroes/http-kit';

export const FORM = 'application/x-www-form-urlencoded';

export interface ReadFormOptions {
  /** Default true: an empty body → 400; false: undefined. */
  required?: boolean;
}

export async function readForm(ctx: Context, { required = true }: ReadFormOptions = {}): Promise<Record<string, FormValue> | undefined> {
  const form = await readBody(ctx, { expect: 'object', required, contentTypes: [FORM] });
  return form as Record<string, FormValue> | undefined;
}
