/**
 * gzip as the last step, via koa-compress with the registry as its filter.
 *
 * Rules:
 * - only gzip (br, deflate and zstd are off) — docs/http.md promises gzip only;
 * - only when Accept-Encoding accepts gzip and shouldCompress() says yes;
 * - bodies smaller than `threshold` bytes are sent uncompressed (streams of
 *   unknown length are always eligible);
 * - koa-compress also skips 204/205/304, 206, already-encoded bodies and
 *   `Cache-Control: no-transform`, and adds `Vary: Accept-Encoding`.
 * - HEAD gets the header fields GET would get (RFC 9110 section 9.3.2):
 *   koa-compress skips HEAD, so its decision runs as for GET and Koa then
 *   sends the headers only — `Content-Encoding: gzip` and no Content-Length.
 * A gzipped body is sent chunked (no Content-Length).
 */
import type { Middleware } from 'koa';
import koaCompress from 'koa-compress';
import type { CodecRegistry } from '../codecs/codec-registry.ts';
import { shouldCompress } from './should-compress.ts';

export function createCompression(registry: CodecRegistry, threshold: number): Middleware {
  const options = {
    filter: (contentType: string) => shouldCompress(registry, contentType),
    threshold,
    gzip: {},
    deflate: false,
    br: false,
    zstd: false,
  };
  const compress = koaCompress(options as koaCompress.CompressOptions) as Middleware;
  return async function compressLast(ctx, next) {
    let head = false;
    await compress(ctx, async () => {
      await next();
      // koa-compress reads the method after next(): let it decide as for GET.
      head = ctx.method === 'HEAD';
      if (head) ctx.method = 'GET';
    });
    if (head) ctx.method = 'HEAD';
  };
}
