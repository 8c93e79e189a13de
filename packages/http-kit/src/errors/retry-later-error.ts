/**
 * The one way to say "busy or unavailable, retry after N seconds" (docs/http.md, "Errors"), whatever the cause and
 * whatever the surface renders (JSON, OAuth `temporarily_unavailable`, an HTML page); every surface sends
 * `Retry-After` (RFC 9110 section 10.2.3). 503 by default, 429 for one caller's excess (RFC 6585 section 4);
 * exposed, so the message names the cause and holds no secret.
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
