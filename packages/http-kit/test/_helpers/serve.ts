/**
 * Test helpers: a real Koa app with the kit on 127.0.0.1:0, and a raw HTTP
 * client (node:http) that can stream chunked bodies and sees gzip as sent.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import Koa from 'koa';
import { pino } from 'pino';
import { createHttpKit, type HttpKit, type HttpKitOptions } from '../../src/index.ts';

export interface Served {
  port: number;
  url: string;
  kit: HttpKit;
  logs: Array<Record<string, unknown>>;
  server: http.Server;
}

export async function serve(
  t: ExecutionContext,
  setup: (app: Koa, kit: HttpKit) => void,
  options: HttpKitOptions = {},
): Promise<Served> {
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const kit = createHttpKit({ logger, ...options });
  const app = new Koa();
  app.silent = true;
  app.use(kit.middleware);
  setup(app, kit);
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}`, kit, logs, server };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: () => unknown;
  socket: unknown;
}

export interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string | number>;
  /** Sent with Content-Length. */
  body?: string | Buffer;
  /** Sent chunked, one write per element, without Content-Length. */
  chunks?: Array<string | Buffer>;
  agent?: http.Agent;
}

export function request(port: number, options: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: options.method ?? (options.body !== undefined || options.chunks ? 'POST' : 'GET'),
      path: options.path ?? '/',
      headers,
      agent: options.agent ?? false,
    }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(parts);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          text: body.toString('utf8'),
          json: () => JSON.parse(body.toString('utf8')),
          socket: res.socket,
        });
      });
    });
    req.on('error', reject);
    if (options.body !== undefined) {
      req.end(options.body);
    } else if (options.chunks) {
      writeChunks(req, options.chunks).catch(reject);
    } else {
      req.end();
    }
  });
}

async function writeChunks(req: http.ClientRequest, chunks: Array<string | Buffer>): Promise<void> {
  for (const chunk of chunks) {
    if (!req.write(chunk)) await new Promise((resolve) => req.once('drain', resolve));
    await new Promise((resolve) => setImmediate(resolve));
  }
  req.end();
}
