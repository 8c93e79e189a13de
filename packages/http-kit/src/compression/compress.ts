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
 * - a body already in memory (Buffer, string, JSON value) is gzipped whole
 *   and sent with a Content-Length, in one write: a process that dies
 *   mid-answer (a killed replica) leaves either no answer, which a proxy
 *   can retry, or a complete one, never a truncated one. Streams stay
 *   streams (sent chunked).
 * - such a body of at most SYNC_GZIP_LIMIT bytes, asked for with a bare
 *   `gzip` (every browser's header), is gzipped in one zlib.gzipSync call
 *   (sync-gzip.ts) instead of koa-compress's zlib stream: same level and
 *   bytes, a fraction of the CPU; a body equal to the previous one so
 *   gzipped (a cached list) reuses its gzip. Larger bodies and other
 *   headers keep the stream.
 * - HEAD gets the header fields GET would get (RFC 9110 section 9.3.2):
 *   koa-compress skips HEAD, so its decision runs as for GET and Koa then
 *   sends the headers only — `Content-Encoding: gzip` and the gzipped
 *   length.
 * - a request that refuses gzip and identity alike (`identity;q=0`, `*;q=0`)
 *   gets the body without a content coding: RFC 9110 section 12.5.3 lets a
 *   server disregard an Accept-Encoding it cannot satisfy rather than
 *   answer 406, and every answer stays the service's JSON (koa-compress
 *   would throw for want of an encoding, outside the error handler).
 * - a request without Accept-Encoding gets identity (koa-compress's own
 *   default): it only gets `Vary: Accept-Encoding`, without running
 *   koa-compress's negotiation for an answer that stays identity.
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
