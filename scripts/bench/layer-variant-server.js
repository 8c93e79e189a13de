/**
 * The compiled resource server with some layers left out, for the `layers` section: the server's own main.js, with
 * the app composed here from the exported layers minus BENCH_SKIP_LAYERS=name,name (APP_LAYERS). Plain JavaScript,
 * so it runs as the image runs main.js (no tsx).
 */
import { limitHeapGrowth } from '@heroes/platform/limit-heap-growth';

// Before the server's modules load, as its own main.ts does (a full collection runs while they do).
limitHeapGrowth();
const { createLogger, stopOnSignals } = await import('@heroes/platform');
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
  return createApp(deps, layers);
}

const options = { ...config, logger, ...(skipLayers.includes('list-cache') && { heroListCacheMs: 0 }) };
const running = await createResourceServer(options, composeVariant).listen();
stopOnSignals(() => running.close(), logger);
