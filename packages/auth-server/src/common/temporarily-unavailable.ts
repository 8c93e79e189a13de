/**
 * How the OAuth endpoints render a RetryLaterError (hash queue full, throttled, database down): RFC 6749's
 * `temporarily_unavailable` with the error's status (503, or 429 for a throttled caller) and Retry-After; inside the
 * library's routes a library error (providerTemporarilyUnavailable), in our steps an OAuthError.
 */
import { errors } from 'oidc-provider';
import type { RetryLaterError } from '@heroes/http-kit';
import { OAuthError } from './oauth-error.ts';

const TEMPORARILY_UNAVAILABLE = 'temporarily_unavailable';

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
