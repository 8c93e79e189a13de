/**
 * The compiled authorization server answering every introspection through oidc-provider alone (libraryIntrospection),
 * for the `introspect` section's same-run A/B against the fast path: the server's own process, with the app composed
 * here from the exported layers. Plain JavaScript, so it runs as the image runs main.js (no tsx).
 */
import { limitHeapGrowth } from '@heroes/platform/limit-heap-growth';

limitHeapGrowth();
const { createLogger, stopOnSignals } = await import('@heroes/platform');
const { createApp, createAppLayers, createAuthServer, libraryIntrospection, loadConfig } = await import('@heroes/auth-server');

const logger = createLogger('auth-server');
const config = loadConfig(process.env);
const server = await createAuthServer({ ...config, logger }, (deps) => createApp(deps, createAppLayers(deps, libraryIntrospection)));
stopOnSignals(() => server.close(), logger);
await server.listen(config.port);
