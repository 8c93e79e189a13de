/**
 * Ready-made HttpError subclasses, one per status the services send.
 * Each has a default message that is also the wire text of `{"error": ...}`.
 *
 * Usage:
 * ```ts
 * throw new BadRequestError('username and password required.');
 * throw new MethodNotAllowedError(['GET', 'POST']); // sets Allow
 * ```
 */
import { HttpError, type HttpErrorOptions } from './http-error.ts';

export class BadRequestError extends HttpError {
  constructor(message = 'bad request', options?: HttpErrorOptions) {
    super(400, message, options);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'unauthorized', options?: HttpErrorOptions) {
    super(401, message, options);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'forbidden', options?: HttpErrorOptions) {
    super(403, message, options);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'not found', options?: HttpErrorOptions) {
    super(404, message, options);
  }
}

export class MethodNotAllowedError extends HttpError {
  /** `allowed` fills the `Allow` header (RFC 9110 section 15.5.6). */
  constructor(allowed: readonly string[] = [], message = 'method not allowed', options: HttpErrorOptions = {}) {
    super(405, message, {
      ...options,
      headers: { ...(allowed.length > 0 ? { Allow: allowed.join(', ') } : {}), ...options.headers },
    });
  }
}

export class ConflictError extends HttpError {
  constructor(message = 'entity_already_exists', options?: HttpErrorOptions) {
    super(409, message, options);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(message = 'entity length exceeds maximum', options?: HttpErrorOptions) {
    super(413, message, options);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message = 'unsupported media type', options?: HttpErrorOptions) {
    super(415, message, options);
  }
}

export class InternalServerError extends HttpError {
  constructor(message = 'internal server error', options?: HttpErrorOptions) {
    super(500, message, options);
  }
}

/** 503; exposed by default because the message is generic and useful to clients. */
export class ServiceUnavailableError extends HttpError {
  constructor(message = 'service unavailable', options?: HttpErrorOptions) {
    super(503, message, { expose: true, ...options });
  }
}
