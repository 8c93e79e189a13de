/**
 * @heroes/http-kit — the request/response body rules of docs/http.md as
 * Koa middleware and small functions: bodies, codecs, key filters, encoding,
 * compression, error mapping. Running a service (settings, logs, metrics,
 * health, serve/drain) is @heroes/platform's. Public API only.
 */
export { createHttpKit, type HttpKit } from './create-http-kit.ts';
export type { HttpKitOptions, ResolvedHttpKitOptions } from './options.ts';
export { DEFAULTS } from './defaults.ts';

export type { Codec, CodecEntry } from './codecs/codec.ts';
export { CodecRegistry, type RegisterOptions } from './codecs/codec-registry.ts';
export { createDefaultRegistry } from './codecs/create-default-registry.ts';
export { JsonCodec } from './codecs/json-codec.ts';
export { FormCodec, type FormValue } from './codecs/form-codec.ts';
export { TextCodec } from './codecs/text-codec.ts';

export { readBody, type ReadBodyOptions } from './body/read-body.ts';
export { isWellFormedText } from './body/assert-well-formed.ts';
export { declaredLength, TOO_LARGE } from './body/read-bytes.ts';
export type { ExpectedShape } from './body/check-shape.ts';

export { filterKeys, type KeyFilters } from './keys/filter-keys.ts';
export { defineResource, type Resource, type ResourceDefinition, type ToMapOptions } from './keys/define-resource.ts';

export { repeatedSingleValuedHeader, SINGLE_VALUED_HEADERS } from './headers/repeated-headers.ts';

export { sendBytes } from './response/send-bytes.ts';
export { noSniff, NO_SNIFF } from './response/no-sniff.ts';
export { shouldCompress } from './compression/should-compress.ts';

export { HttpError, type HttpErrorOptions } from './errors/http-error.ts';
export {
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  MethodNotAllowedError,
  ConflictError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  TooManyRequestsError,
  InternalServerError,
} from './errors/client-errors.ts';
export { RetryLaterError, type RetryLaterOptions } from './errors/retry-later-error.ts';
export { toProblem, withRetryAfter, type ErrorTranslator, type Problem } from './errors/to-problem.ts';
export { answerDatabaseFailures, type DatabaseFailureKind } from './errors/database-answers.ts';
export { QueueFullError } from './errors/queue-full-error.ts';
export { serializeError, type SerializedError } from './logging/serialize-error.ts';
export type { Logger } from 'pino';

export { dispatchByMethod, passThrough, type DispatchOptions, type Method, type MethodTable } from './routing/dispatch-by-method.ts';
