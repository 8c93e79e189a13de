/**
 * The two ways /auth/code fails (RFC 6749 section 4.1.2.1): before client and redirect URI are trusted, an HTML error
 * page (400; a RetryLaterError's 503 or 429 with Retry-After), never a redirect (PageError); after, a 302 back with
 * `error`, `error_description`, `state` and `iss` (RedirectError).
 */
import { HttpError } from '@heroes/http-kit';

export class PageError extends HttpError {
  constructor(readonly error: string, readonly description: string, status = 400) {
    super(status, `${error}: ${description}`, { code: error, expose: true });
  }
}

export class RedirectError extends Error {
  constructor(readonly error: string, readonly description: string) {
    super(`${error}: ${description}`);
    this.name = 'RedirectError';
  }
}
