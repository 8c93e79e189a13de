/**
 * Ready-made HttpError subclasses, one per status the services send, each with a default message that is also the
 * wire text of `{"error": ...}`. They are values, not types: annotate with `HttpError`.
 * Usage: throw new MethodNotAllowedError(['GET', 'POST']) // sets Allow
 */
import { HttpError, type HttpErrorOptions } from './http-error.ts';

/** An HttpError subclass named `name` for one status, with its default message and options. */
function statusError(name: string, status: number, defaultMessage: string, defaults: HttpErrorOptions = {}) {
  const errorClass = class extends HttpError {
    constructor(message = defaultMessage, options?: HttpErrorOptions) {
      super(status, message, { ...defaults, ...options });
    }
  };
  // The name shows in logs (serializeError's `type`) and in stack traces.
  Object.defineProperty(errorClass, 'name', { value: name });
  return errorClass;
}

export const BadRequestError = statusError('BadRequestError', 400, 'bad request');
export const UnauthorizedError = statusError('UnauthorizedError', 401, 'unauthorized');
export const ForbiddenError = statusError('ForbiddenError', 403, 'forbidden');
export const NotFoundError = statusError('NotFoundError', 404, 'not found');
export const ConflictError = statusError('ConflictError', 409, 'entity_already_exists');
export const PayloadTooLargeError = statusError('PayloadTooLargeError', 413, 'entity length exceeds maximum');
export const UnsupportedMediaTypeError = statusError('UnsupportedMediaTypeError', 415, 'unsupported media type');
/** 429 (RFC 6585 section 4); give `headers: { 'Retry-After': seconds }`. */
export const TooManyRequestsError = statusError('TooManyRequestsError', 429, 'too many requests');
export const InternalServerError = statusError('InternalServerError', 500, 'internal server error');
// 503 and "429, retry later" are RetryLaterError (retry-later-error.ts): one way to say it.

export class MethodNotAllowedError extends HttpError {
  /** `allowed` fills the `Allow` header (RFC 9110 section 15.5.6). */
  constructor(allowed: readonly string[] = [], message = 'method not allowed', options: HttpErrorOptions = {}) {
    super(405, message, {
      ...options,
      headers: { ...(allowed.length > 0 ? { Allow: allowed.join(', ') } : {}), ...options.headers },
    });
  }
}
