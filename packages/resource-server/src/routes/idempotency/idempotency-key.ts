/**
 * The Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header): an RFC 8941 String Item of 1 to
 * MAX_KEY_LENGTH printable ASCII characters; absent → undefined; anything else, or sent twice → 400
 * `invalid_idempotency_key` before anything is read or written.
 */
import type { Context } from 'koa';
import { BadRequestError } from '@heroes/http-kit';

const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const MAX_KEY_LENGTH = 255;

const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

export function readIdempotencyKey(ctx: Context): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const quoted = typeof raw === 'string' ? SF_STRING.exec(raw.trim())?.[1] : undefined;
  const key = quoted?.replace(/\\(["\\])/g, '$1');
  if (key === undefined || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new BadRequestError(
      `'${IDEMPOTENCY_KEY_HEADER}' must be one quoted string of 1 to ${MAX_KEY_LENGTH} printable ASCII characters, e.g. "8e03978e-40d5-43e8-bc93-6894a57f9324"`,
      { code: 'invalid_idempotency_key' },
    );
  }
  return key;
}
