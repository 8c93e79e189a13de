/**
 * The compiled resource server with some app layers left out, for
 * `npm run bench`'s layer table (sections/layers.ts): the server's own
 * main.js, but BENCH_SKIP_LAYERS=name,name (names: APP_LAYERS of the
 * resource server's app.ts) is passed as its test-only `skipLayers` option.
 * Plain JavaScript, so that it runs as the image runs main.js (no tsx).
 */
import { limitHeapGrowth } from '@heroes/platform/limit-heap-growth';

// Before the server's modules load, as its own main.ts does (a full collection runs while they do).
limitHeapGrowth();
const { createLogger, stopOnSignals } = await import('@heroes/platform');
const { APP_LAYERS, createResourceServer, loadConfig } = await import('@heroes/resource-server');
const skipLayers = (process.env.BENCH_SKIP_LAYERS ?? '').split(',').filter(Boolean);
const unknown = skipLayers.filter((layer) => !APP_LAYERS.includes(layer));
if (unknown.length > 0) throw new Error(`unknown layer(s) ${unknown.join(', ')}; known: ${APP_LAYERS.join(', ')}`);
const logger = createLogger('resource-server');
const config = await loadConfig(process.env);
const running = await createResourceServer({ ...config, logger, skipLayers }).listen();
stopOnSignals(() => running.close(), logger);
