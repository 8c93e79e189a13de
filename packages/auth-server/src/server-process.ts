/**
 * The authorization server process: configuration from the environment (config/settings.ts; one line per problem
 * and exit 1), listens on AUTH_HOST:AUTH_PORT, stops cleanly when told. Loaded by main.ts once V8's heap growth is
 * capped.
 */
import { createLogger, exitOnStartupFailure, stopOnSignals } from '@heroes/platform';
import { createAuthServer } from './create-auth-server.ts';
import { loadConfig } from './config/load-config.ts';

const logger = createLogger('auth-server');

try {
  const config = loadConfig(process.env);
  const starting = createAuthServer({ ...config, logger }).then(async (server) => {
    const { url, managementUrl } = await server.listen(config.port);
    logger.info({ url, issuer: config.publicBaseUrl, ...(managementUrl && { managementUrl }) }, 'authorization server listening');
    return server;
  });
  // Before listening: a stop asked while starting (by a supervisor) waits for the start, then drains.
  stopOnSignals(async () => (await starting).close(), logger);
  await starting;
} catch (err) {
  exitOnStartupFailure(err, 'auth-server', logger);
}
