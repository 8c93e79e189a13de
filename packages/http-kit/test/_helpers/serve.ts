/**
 * Test helpers: a real Koa app with the kit on 127.0.0.1:0; the raw HTTP
 * client is the test kit's rawRequest.
 */
import http from 'node:http';
import type { ExecutionContext } from 'ava';
import Koa from 'koa';
import { pino } from 'pino';
import { captureJsonLines, listenLocally, type Listening } from '@heroes/test-kit';
export { rawRequest as request, type RawRequest, type RawResponse } from '@heroes/test-kit';
import { createHttpKit, type HttpKit, type HttpKitOptions } from '../../src/index.ts';

/** Where the app listens (closed at teardown), its kit, its log lines and its node:http server. */
export interface Served extends Listening {
  kit: HttpKit;
  logs: Array<Record<string, unknown>>;
  server: http.Server;
}

export async function serve(
  t: ExecutionContext,
  setup: (app: Koa, kit: HttpKit) => void,
  options: HttpKitOptions = {},
): Promise<Served> {
  const { lines: logs, stream } = captureJsonLines();
  const logger = pino({ level: 'debug' }, stream);
  const kit = createHttpKit({ logger, ...options });
  const app = new Koa();
  app.silent = true;
  app.use(kit.middleware);
  setup(app, kit);
  const server = http.createServer(app.callback());
  const listening = await listenLocally(server);
  t.teardown(listening.close);
  return { ...listening, kit, logs, server };
}
