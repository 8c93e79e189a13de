/**
 * The Idempotency-Key request header (IETF draft-ietf-httpapi-idempotency-key-header):
 * an RFC 8941 Item whose value is a String, e.g. `Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`.
 *
 * Rules:
 * - absent → undefined (the request is served as any other);
 * - a quoted string of 1 to MAX_KEY_LENGTH printable ASCII characters
 *   (`\"` and `\\` escapes, as RFC 8941 section 3.3.3 allows) → the key;
 * - anything else (unquoted, empty, too long, other characters, the header
 *   sent twice) → 400 `invalid_idempotency_key`, before anything is read or written.
 *
 * Usage:
 *   const key = readIdempotencyKey(ctx); // string | undefined
 */
import type { Context } from 'koa';
import { BadRequestError } from '@heroes/http-kit';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const MAX_KEY_LENGTH = 255;

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
