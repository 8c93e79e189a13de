/**
 * How the OAuth endpoints render http-kit's RetryLaterError (a full
 * password-hash queue, a throttled login or client, the database down):
 * the `temporarily_unavailable` code (RFC 6749 sections 4.1.2.1 and 5.2
 * body), the error's status (503, or 429 for a throttled caller, RFC 6585
 * section 4) and its `Retry-After`. One rule, two places it is thrown from:
 * - inside the library's routes (our grant handler, client authentication):
 *   a library error, rendered by the library (providerTemporarilyUnavailable);
 * - in our own steps around the library: an OAuthError, rendered by
 *   http-kit (oauthTemporarilyUnavailable).
 *
 * Usage:
 *   .catch((err) => { throw err instanceof RetryLaterError ? providerTemporarilyUnavailable(ctx, err) : err; })
 */
import { errors } from 'oidc-provider';
import type { RetryLaterError } from '@heroes/http-kit';
import { OAuthError } from '../middleware/oauth-error.ts';

export const TEMPORARILY_UNAVAILABLE = 'temporarily_unavailable';

/** For the library to render; `description` replaces the error's message. */
export function providerTemporarilyUnavailable(
  ctx: { set(field: string, value: string): void } | undefined,
  err: RetryLaterError,
  description = err.message,
): Error {
  ctx?.set('Retry-After', String(err.retryAfterSeconds));
  return Object.assign(new errors.CustomOIDCProviderError(TEMPORARILY_UNAVAILABLE, description), { status: err.status, statusCode: err.status });
}

/** For http-kit to render; the cause is the error's own (e.g. the database's), as logged. */
export function oauthTemporarilyUnavailable(err: RetryLaterError): OAuthError {
  return new OAuthError(err.status, TEMPORARILY_UNAVAILABLE, err.message, { 'Retry-After': String(err.retryAfterSeconds) }, {
    expose: true,
    cause: err.cause ?? err,
  });
}
