/**
 * The one way to say "busy or unavailable, retry after N seconds", whatever
 * the cause (a full work queue, a throttled caller, the database down) and
 * whatever the surface renders it as (docs/http.md, "Errors"): JSON routes
 * answer `{"error": message}`; an OAuth endpoint answers the RFC 6749
 * `temporarily_unavailable` code; an HTML page its error page. Every
 * surface sends `Retry-After` (RFC 9110 section 10.2.3).
 *
 * Rules:
 * - 503 by default (the service); 429 when one caller sent too much
 *   (RFC 6585 section 4);
 * - exposed: the message names the cause and holds no secret;
 * - `retryAfterSeconds` is also the `Retry-After` header.
 *
 * Usage:
 *   throw new RetryLaterError('server busy, retry later', { retryAfterSeconds: 1, code: 'server_busy' });
 *   throw new RetryLaterError('too many failed logins; retry after 30 s', { status: 429, retryAfterSeconds: 30 });
 */
import { DEFAULTS } from '../defaults.ts';
import { HttpError, type HttpErrorOptions } from './http-error.ts';

export interface RetryLaterOptions extends Omit<HttpErrorOptions, 'expose'> {
  /** 503 (default) or 429. */
  status?: 429 | 503;
  /** Default DEFAULTS.retryAfterSeconds. */
  retryAfterSeconds?: number;
}

export class RetryLaterError extends HttpError {
  readonly retryAfterSeconds: number;

  constructor(message = 'service unavailable', { status = 503, retryAfterSeconds = DEFAULTS.retryAfterSeconds, ...options }: RetryLaterOptions = {}) {
    super(status, message, { ...options, expose: true, headers: { ...options.headers, 'Retry-After': String(retryAfterSeconds) } });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
