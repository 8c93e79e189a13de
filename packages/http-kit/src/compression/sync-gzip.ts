/**
 * The synchronous gzip path: a body in memory of at most SYNC_GZIP_LIMIT bytes is gzipped in one zlib.gzipSync
 * call with the stream's options (the same bytes, without the stream's set-up and thread-pool hop), and an answer
 * equal to the previous one reuses its gzip (LastGzip).
 */
import { gzipSync, type ZlibOptions } from 'node:zlib';
import type Koa from 'koa';
import { Stream } from 'node:stream';

/**
 * gzip's time is linear in the body's length and gzipSync blocks the event
 * loop meanwhile: 64 KiB of JSON takes about 0.3 ms of CPU (level 6, this
 * project's bench machine), a bounded stall far below the latency goals;
 * larger bodies keep the stream, which runs in zlib's thread pool.
 */
export const SYNC_GZIP_LIMIT = 64 * 1024;

/**
 * Whether koa-compress's own negotiation surely picks gzip: the header
 * names `gzip` without parameters (q=1, the highest; at equal q it prefers
 * gzip to identity), or is `*` alone (which it reads as gzip). Any other
 * header keeps koa-compress's negotiation and its stream.
 */
export function acceptsGzipOutright(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  if (acceptEncoding === '*') return true;
  return acceptEncoding.split(',').some((entry) => entry.trim().toLowerCase() === 'gzip');
}

export function isInMemory(body: unknown): boolean {
  return body != null && !(body instanceof Stream);
}

/** Called by koa-compress once the answer is eligible for gzip. */
export function takesSyncGzip(ctx: Koa.Context, size: number): boolean {
  return size <= SYNC_GZIP_LIMIT && isInMemory(ctx.body) && acceptsGzipOutright(ctx.request.headers['accept-encoding']);
}

/**
 * gzipSync with a memory of one: the last body gzipped (a copy) and its
 * gzip. The same answer sent again and again (a list kept in a cache, asked
 * for by every client) is gzipped once; comparing the bytes costs far less
 * than gzipping them. At most SYNC_GZIP_LIMIT bytes and their gzip are kept.
 */
export class LastGzip {
  #bytes: Buffer | undefined;
  #gzip: Buffer | undefined;

  constructor(private readonly options: ZlibOptions) {}

  of(body: string | Buffer): Buffer {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (this.#bytes !== undefined && this.#bytes.equals(bytes)) return this.#gzip!;
    const gzip = gzipSync(bytes, this.options);
    this.#bytes = Buffer.from(bytes); // a copy: the owner may change its buffer once sent
    this.#gzip = gzip;
    return gzip;
  }
}

/** Replaces the in-memory body by its gzip, as koa-compress would have sent it. */
export function gzipInMemory(ctx: Koa.Context, last: LastGzip): void {
  const body: unknown = ctx.body;
  const bytes = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  ctx.set('Content-Encoding', 'gzip');
  ctx.remove('Content-Length');
  ctx.body = last.of(bytes); // Koa sets the gzipped Content-Length
}
