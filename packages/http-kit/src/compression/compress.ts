/**
 * gzip as the last step (koa-compress, the registry as filter; docs/http.md promises gzip only). A body in memory
 * is gzipped whole with a Content-Length (a dying process leaves no answer or a whole one), a small one asked for
 * with a bare `gzip` in one gzipSync call (sync-gzip.ts); streams stay chunked. HEAD gets GET's header fields; no
 * Accept-Encoding → identity, `Vary` only; refusing gzip and identity alike → identity (RFC 9110 section 12.5.3).
 */
import { Readable, Stream } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import koaCompress from 'koa-compress';
import type { CodecRegistry } from '../codecs/codec-registry.ts';
import { shouldCompress } from './should-compress.ts';
import { gzipInMemory, isInMemory, LastGzip, takesSyncGzip } from './sync-gzip.ts';

/** zlib's defaults (level 6), for the stream and gzipSync alike. */
const GZIP_OPTIONS = {};

export function createCompression(registry: CodecRegistry, threshold: number): Middleware {
  // Answers koa-compress found eligible and left to gzipSync (see below).
  const syncGzipped = new WeakSet<object>();
  const lastGzip = new LastGzip(GZIP_OPTIONS);
  const options = {
    filter: (contentType: string) => shouldCompress(registry, contentType),
    // koa-compress asks for the threshold once every one of its skip rules
    // (no body, HEAD, 204/206, Content-Encoding, filter, no-transform, ...)
    // has passed: the one place where it is known to gzip but has not yet
    // made its stream. A body that takes the synchronous path gets an
    // infinite threshold, so koa-compress leaves it alone, and is gzipped
    // after it returns.
    threshold: (_type: string, size: number | undefined, ctx: Koa.Context): number => {
      if (size === undefined || size < threshold) return threshold;
      if (!takesSyncGzip(ctx, size)) return threshold;
      syncGzipped.add(ctx);
      return Infinity;
    },
    gzip: GZIP_OPTIONS,
    deflate: false,
    br: false,
    zstd: false,
  };
  const compress = koaCompress(options as koaCompress.CompressOptions) as Middleware;
  const negotiated: Middleware = async function negotiated(ctx, next) {
    let head = false;
    let inMemory = false;
    await compress(ctx, async () => {
      await next();
      // Nothing acceptable to koa-compress: identity anyway (see above).
      if (ctx.acceptsEncodings('gzip', 'identity') === false) ctx.compress = false;
      // koa-compress reads the method after next(): let it decide as for GET.
      head = ctx.method === 'HEAD';
      if (head) ctx.method = 'GET';
      inMemory = isInMemory(ctx.body);
    });
    if (head) ctx.method = 'HEAD';
    if (syncGzipped.has(ctx)) {
      gzipInMemory(ctx, lastGzip);
      return;
    }
    // koa-compress made a gzip stream of an in-memory body: finish it here.
    if (inMemory && ctx.body instanceof Stream && ctx.response.get('Content-Encoding') === 'gzip') {
      ctx.body = await buffer(ctx.body as Readable);
    }
  };
  return function compressLast(ctx, next) {
    if (ctx.req.headers['accept-encoding']) return negotiated(ctx, next);
    ctx.vary('Accept-Encoding');
    return next();
  };
}
