/**
 * The resource-server process: configuration from the environment (see
 * config/load-config.ts), listen, stop cleanly on SIGINT/SIGTERM.
 * - WORKERS=n (default 1) forks n worker processes sharing the port
 *   (node:cluster); each has its own pool, cache and revocation feed.
 */
import cluster from 'node:cluster';
import { createLogger } from '@heroes/http-kit';
import { loadConfig } from './config/load-config.ts';
import { createResourceServer } from './create-resource-server.ts';

const logger = createLogger('resource-server');
const workers = Number(process.env.WORKERS ?? 1);

if (cluster.isPrimary && workers > 1) {
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; stopping');
    stopping = true;
    for (const other of Object.values(cluster.workers ?? {})) other?.kill('SIGTERM');
    process.exitCode = 1;
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    });
  }
} else {
  try {
    const config = await loadConfig(process.env);
    const running = await createResourceServer({ ...config, logger }).listen();
    const stop = (signal: string) => {
      logger.info({ signal }, 'stopping');
      running.close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'unclean stop');
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  } catch (err) {
    logger.fatal({ err }, 'resource server failed to start');
    process.exit(1);
  }
}
