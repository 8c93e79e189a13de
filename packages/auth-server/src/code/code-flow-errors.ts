/**
 * The two ways /auth/code fails (RFC 6749 section 4.1.2.1):
 * - before the client and redirect URI are trusted: an HTML error page
 *   (400), never a redirect to an unverified URI (PageError);
 * - after: a 302 back to the registered redirect URI with `error`,
 *   `error_description`, `state` and `iss` (RedirectError).
 */
export class PageError extends Error {
  constructor(readonly error: string, readonly description: string, readonly status = 400) {
    super(`${error}: ${description}`);
    this.name = 'PageError';
  }
}

export class RedirectError extends Error {
  constructor(readonly error: string, readonly description: string) {
    super(`${error}: ${description}`);
    this.name = 'RedirectError';
  }
}
