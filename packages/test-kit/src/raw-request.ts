/**
 * One HTTP request through node:http without an agent of its own, a body sent with Content-Length or chunked (one
 * write per element, each after the last drained), the answer as sent (gzip not undone): the bytes on the wire.
 * Usage: const res = await rawRequest(port, { method: 'POST', chunks: ['a', 'b'] })
 */
import http, { type IncomingHttpHeaders } from 'node:http';

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

export function rawRequest(port: number, options: RawRequest = {}): Promise<RawResponse> {
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
