/**
 * @heroes/http-kit — the request/response body rules of docs/http.md as
 * Koa middleware and small functions. Public API only.
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
  ServiceUnavailableError,
} from './errors/client-errors.ts';
export { toProblem, withRetryAfter, type ErrorTranslator, type Problem } from './errors/to-problem.ts';
export { BoundedQueue, QueueFullError, type BoundedQueueOptions, type QueuePriority } from './queue/bounded-queue.ts';
export { libuvPoolSize } from './settings/libuv-pool-size.ts';
export { hashQueueSettings } from './settings/hash-queue-settings.ts';
export { credentialBodySettings, CREDENTIAL_BODY_BYTES } from './settings/credential-body-settings.ts';

export { configureServer, type ServerOptions, type ResolvedServerOptions } from './server/configure-server.ts';
export { handleClientErrors, type ClientErrorOptions } from './server/handle-client-errors.ts';

export { createLogger } from './logging/create-logger.ts';
export { logWhenClosed } from './logging/log-requests.ts';
export { serializeError, type SerializedError } from './logging/serialize-error.ts';
export type { Logger } from 'pino';

export * from './settings/env-parsers.ts'; // every export there is a parser of the settings tables
export {
  defaultsOf,
  defineSettings,
  loadSettings,
  readSettings,
  settingsMarkdown,
  SettingsError,
  type Env,
  type Setting,
  type SettingDefaults,
  type SettingsTable,
  type SettingValues,
} from './settings/define-settings.ts';
export { listen, shownHost, type Listening } from './server/listen.ts';
export { serve, type ServeOptions, type Serving } from './server/serve.ts';
export { isSupervised, stopOnSignals, STOP_MESSAGE, whenAskedToStop } from './server/stop-on-signals.ts';
export { freePort } from './server/free-port.ts';
export { limitHeapGrowth, HEAP_GROWING_PERCENT } from './server/limit-heap-growth.ts';
export { exitOnStartupFailure, startupFailureLines } from './server/exit-on-startup-failure.ts';
export { createHealth, HEALTH_PATHS, type Health, type HealthCheck, type HealthOptions } from './health/create-health.ts';
export { trackRequests, type Drainer } from './server/drain.ts';
export { createRequestId, REQUEST_ID_HEADER } from './logging/request-id.ts';
export { currentRequestId, requestContext, type RequestContext } from './logging/request-context.ts';
export {
  clientAddressOf,
  createClientAddress,
  createTrustTest,
  NO_PROXY,
  plainAddress,
  resolveClientAddress,
  type ClientAddress,
  type ProxyTrust,
} from './address/client-address.ts';
export { createInternalAccess } from './address/internal-access.ts';
export { createMetrics, METRICS_PATH, type Metrics, type MetricsOptions } from './metrics/create-metrics.ts';
export { createIpAllowList } from './metrics/ip-allow-list.ts';
export { dispatchByMethod, passThrough, type DispatchOptions, type Method, type MethodTable } from './routing/dispatch-by-method.ts';
