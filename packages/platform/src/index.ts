/**
 * @heroes/platform: what every server process runs on (settings tables, logger and request log, request ids,
 * metrics, health probes, the client-address rule, the bounded hash queue; starting, hardening, draining and
 * stopping a server). What a body means is @heroes/http-kit's. Public API only.
 */
export { DEFAULTS as PLATFORM_DEFAULTS } from './defaults.ts';
export type { Logger } from 'pino';
export { inSpan, isTracing, nameRoute, startChildSpan, withinSpan } from './tracing/spans.ts';
export { traceRequests } from './tracing/request-span.ts';
export { BoundedQueue, type BoundedQueueOptions, type QueuePriority } from './queue/bounded-queue.ts';
export { libuvPoolSize } from './settings/libuv-pool-size.ts';
export { SHARED_SETTINGS, OPTIONAL_DATABASE_URL, CREDENTIAL_BODY_BYTES } from './settings/shared-settings.ts';
export { configureServer, type ServerOptions, type ResolvedServerOptions } from './server/configure-server.ts';
export { handleClientErrors, type ClientErrorOptions } from './server/handle-client-errors.ts';
export { createLogger } from './logging/create-logger.ts';
export { createRequestLogger, logWhenClosed } from './logging/log-requests.ts';
export * from './settings/env-parsers.ts'; // every export there is a parser of the settings tables
export {
  defaultsOf,
  defineSettings,
  isSet,
  loadSettings,
  readSettings,
  settingsMarkdown,
  SettingsError,
  type Env,
  type ReadSetting,
  type Setting,
  type SettingDefaults,
  type SettingsTable,
  type SettingValues,
} from './settings/define-settings.ts';
export { listen, shownHost, type Listening } from './server/listen.ts';
export { serve, type ServeOptions, type Serving } from './server/serve.ts';
export { serveManagement, type ManagementOptions } from './server/serve-management.ts';
export { isSupervised, stopOnSignals, STOP_MESSAGE, whenAskedToStop } from './server/stop-on-signals.ts';
export { CrashLoop } from './server/crash-loop.ts';
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
  type ClientAddressState,
  type ProxyTrust,
} from './address/client-address.ts';
export { createInternalAccess } from './address/internal-access.ts';
export { addressBucket } from './address/address-bucket.ts';
export { createMetrics, METRICS_PATH, type Metrics, type MetricsOptions } from './metrics/create-metrics.ts';
export { createIpAllowList } from './metrics/ip-allow-list.ts';
