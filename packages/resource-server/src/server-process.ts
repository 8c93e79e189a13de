/**
 * The resource-server process: configuration (one line per problem, exit 1), listen, drain on stop, exit 0.
 * WORKERS=n forks n workers on one port (node:cluster), each with its own pools, cache and feed; a dead worker is
 * replaced, a crash loop (@heroes/platform's CrashLoop) stops all and exits 1; asked to stop, it tells each worker over IPC and exits
 * once all drained. Loaded by main.ts once V8's heap growth is capped.
 */
import cluster from 'node:cluster';
import { CrashLoop, createLogger, exitOnStartupFailure, STOP_MESSAGE, stopOnSignals, whenAskedToStop } from '@heroes/platform';
import { loadConfig } from './config/load-config.ts';
import { createResourceServer } from './create-resource-server.ts';

const logger = createLogger('resource-server');

try {
  // The primary checks the settings too: a bad value is reported once, before any fork.
  const config = await loadConfig(process.env);
  if (cluster.isPrimary && config.workers > 1) runPrimary(config.workers);
  else {
    const starting = createResourceServer({ ...config, logger }).listen();
    // Before listening: a stop asked while starting (by a supervisor) waits for the start, then drains.
    stopOnSignals(async () => (await starting).close(), logger);
    await starting;
  }
} catch (err) {
  exitOnStartupFailure(err, 'resource-server', logger);
}

function runPrimary(workers: number): void {
  let stopping = false;
  const crashLoop = new CrashLoop();
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    const { deaths, givesUp } = crashLoop.died();
    if (givesUp) {
      logger.error({ pid: worker.process.pid, code, signal, deaths }, 'workers die in a loop; stopping');
      stopping = true;
      process.exitCode = 1;
      stopWorkers();
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    const replacement = cluster.fork();
    logger.error({ pid: worker.process.pid, code, signal, replacement: replacement.process.pid }, 'worker died; started a replacement');
  });
  whenAskedToStop((reason) => {
    logger.info({ reason }, 'stopping workers');
    stopping = true;
    stopWorkers();
  }, logger);
}

/** As scripts/start's supervisor: the message for a worker that listens for it, SIGTERM for one still loading. */
function stopWorkers(): void {
  for (const worker of Object.values(cluster.workers ?? {})) {
    if (worker?.isConnected()) worker.send(STOP_MESSAGE);
    worker?.process.kill('SIGTERM');
  }
}
