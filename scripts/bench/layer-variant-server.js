/**
 * The compiled resource server with some layers left out, for the `layers` section: the server's own main.js, with
 * the app composed here from the exported layers minus BENCH_SKIP_LAYERS=name,name (APP_LAYERS). Plain JavaScript,
 * so it runs as the image runs main.js (no tsx).
 */
import { limitHeapGrowth } from '@heroes/platform/limit-heap-growth';

// Before the server's modules load, as its own main.ts does (a full collection runs while they do).
limitHeapGrowth();
const { performance } = await import('node:perf_hooks');
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
  return createApp(deps, process.env.BENCH_REQUEST_LOG === 'hand-written' ? layers.map(([name, layer]) => [name, name === 'log' ? handWrittenLog : layer]) : layers);
}

/** The A/B of the request log (issue 28): the line as written by hand before pino-http wrote it. */
function handWrittenLog(ctx, next) {
  const started = performance.now();
  const { method, path } = ctx;
  const client = ctx.ip;
  const reqId = currentRequestId();
  const res = ctx.res;
  res.once('close', () => {
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const status = res.headersSent ? res.statusCode : null;
    const line = reqId === undefined ? { method, path, client, status, ms } : { reqId, method, path, client, status, ms };
    if (!res.writableFinished) line.aborted = true;
    logger.info(line, 'request');
  });
  return next();
}

const options = { ...config, logger, ...(skipLayers.includes('list-cache') && { heroListCacheMs: 0 }) };
const running = await createResourceServer(options, composeVariant).listen();
stopOnSignals(() => running.close(), logger);
