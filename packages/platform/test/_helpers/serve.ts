/**
 * Test helpers: a real Koa app as the servers compose it (request log, then
 * http-kit) on 127.0.0.1:0, closed at teardown, its log lines kept; the raw
 * HTTP client is the test kit's rawRequest.
 */
import http from 'node:http';
import type { ExecutionContext } from 'ava';
import Koa from 'koa';
import { pino } from 'pino';
import { createHttpKit, type HttpKitOptions } from '@heroes/http-kit';
import { captureJsonLines, listenLocally, type Listening } from '@heroes/test-kit';
import { configureServer, createRequestLogger, type ServerOptions } from '../../src/index.ts';

export { rawRequest as request, type RawRequest, type RawResponse } from '@heroes/test-kit';

export interface Served extends Listening {
  logs: Array<Record<string, unknown>>;
}

/** `setup` adds the routes; `serverOptions`, when given, go to configureServer() before listen. */
export async function serve(t: ExecutionContext, setup: (app: Koa) => void, options: HttpKitOptions = {}, serverOptions?: ServerOptions): Promise<Served> {
  const { lines: logs, stream } = captureJsonLines();
  const logger = pino({ level: 'debug' }, stream);
  const kit = createHttpKit({ logger, ...options });
  const app = new Koa();
  app.silent = true;
  app.use(createRequestLogger(logger));
  app.use(kit.middleware);
  setup(app);
  const server = http.createServer(app.callback());
  if (serverOptions) configureServer(server, { maxBodyBytes: kit.options.maxBodyBytes, logger, ...serverOptions });
  const listening = await listenLocally(server);
  t.teardown(listening.close);
  return { ...listening, logs };
}
