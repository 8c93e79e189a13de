/**
 * Reads a form body of the auth server's routes and the provider's endpoints through http-kit's readBody: its size
 * limit (413), media type and charset (415), Content-Length mismatch or empty (400), and its FormCodec, the one form
 * decoder (escapes in the declared charset, malformed → 400, over 1,000 parameters → 413, linear time).
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
