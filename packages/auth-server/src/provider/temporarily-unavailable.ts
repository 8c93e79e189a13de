/**
 * A refusal raised inside the library's routes and rendered by it:
 * `temporarily_unavailable` (RFC 6749 section 5.2 body) with Retry-After,
 * 429 for a throttled login (RFC 6585 section 4), 503 for a full
 * password-hash queue (a password or a client secret to compare).
 *
 * Usage: `throw temporarilyUnavailable(ctx, 503, 'server busy, retry later', 1);`
 */
import { errors } from 'oidc-provider';

export function temporarilyUnavailable(
  ctx: { set(field: string, value: string): void } | undefined,
  status: 429 | 503,
  description: string,
  retryAfterSeconds: number,
): Error {
  ctx?.set('Retry-After', String(retryAfterSeconds));
  return Object.assign(new errors.CustomOIDCProviderError('temporarily_unavailable', description), { status, statusCode: status });
}
