/**
 * The compiled resource server with some layers left out, for the `layers` section: the server's own main.js, with
 * the app composed here from the exported layers minus BENCH_SKIP_LAYERS=name,name (APP_LAYERS). Plain JavaScript,
 * so it runs as the image runs main.js (no tsx).
 */
import { limitHeapGrowth } from '@heroes/platform/limit-heap-growth';

// Before the server's modules load, as its own main.ts does (a full collection runs while they do).
limitHeapGrowth();
const { default: pinoHttp } = await import('pino-http');
const { createLogger, currentRequestId, stopOnSignals } = await import('@heroes/platform');
const { answerDatabaseFailures, createHttpKit } = await import('@heroes/http-kit');
const { classifyDatabaseError } = await import('@heroes/db/database-errors');
const { APP_LAYERS, createApp, createAppLayers, createResourceServer, loadConfig } = await import('@heroes/resource-server');
const skipLayers = (process.env.BENCH_SKIP_LAYERS ?? '').split(',').filter(Boolean);
const unknown = skipLayers.filter((layer) => !APP_LAYERS.includes(layer));
if (unknown.length > 0) throw new Error(`unknown layer(s) ${unknown.join(', ')}; known: ${APP_LAYERS.join(', ')}`);
const logger = createLogger('resource-server');
const config = await loadConfig(process.env);

/** The app's layers without the skipped ones; `compression` is the http-kit layer's gzip. */
function composeVariant(deps) {
  const layers = createAppLayers(deps)
    .filter(([name]) => !skipLayers.includes(name))
    .map(([name, layer]) => [name, name === 'http-kit' && skipLayers.includes('compression')
      ? createHttpKit({ maxBodyBytes: deps.config.maxBodyBytes, logger, skip: { compression: true }, translateError: answerDatabaseFailures(classifyDatabaseError) }).middleware
      : layer]);
  return createApp(deps, process.env.BENCH_REQUEST_LOG === 'pino-http' ? layers.map(([name, layer]) => [name, name === 'log' ? pinoHttpLog : layer]) : layers);
}

/**
 * The A/B of the request log (docs/performance.md): the same line through pino-http, in its cheapest shape (no request
 * serializer, one child logger per request for the id).
 */
const pinoHttpLogger = pinoHttp({
  logger,
  quietReqLogger: true,
  quietResLogger: true,
  wrapSerializers: false,
  serializers: { req: (req) => req.method },
  customAttributeKeys: { reqId: 'reqId' },
  genReqId: () => currentRequestId(),
  customLogLevel: () => 'info',
  customSuccessMessage: () => 'request',
  customErrorMessage: () => 'request',
  customSuccessObject: (req, res, value) => lineOf(req, res, value.responseTime),
  customErrorObject: (req, res, _err, value) => lineOf(req, res, value.responseTime),
});
function lineOf(req, res, ms) {
  const line = { ...req.started, status: res.headersSent ? res.statusCode : null, ms };
  if (!res.writableFinished) line.aborted = true;
  return line;
}
function pinoHttpLog(ctx, next) {
  ctx.req.started = { method: ctx.method, path: ctx.path, client: ctx.ip };
  pinoHttpLogger(ctx.req, ctx.res);
  return next();
}

const options = { ...config, logger, ...(skipLayers.includes('list-cache') && { heroListCacheMs: 0 }) };
const running = await createResourceServer(options, composeVariant).listen();
stopOnSignals(() => running.close(), logger);
