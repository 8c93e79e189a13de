/**
 * The compiled resource server with some layers left out, for the `layers` section: the server's own main.js with
 * BENCH_SKIP_LAYERS=name,name (APP_LAYERS of its app.ts) passed as the test-only `skipLayers` option. Plain
 * JavaScript, so it runs as the image runs main.js (no tsx).
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
