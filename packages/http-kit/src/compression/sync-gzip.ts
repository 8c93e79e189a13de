/**
 * The synchronous gzip path for small in-memory answers.
 *
 * koa-compress gzips through a zlib stream: for a few hundred bytes of JSON
 * the stream's set-up, the thread-pool hop and reading it back cost several
 * times what one zlib.gzipSync call does (docs/performance.md). A body
 * already in memory and at most SYNC_GZIP_LIMIT bytes long is gzipped in one
 * call instead, with the stream's options, so the bytes sent are the same.
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

/** Replaces the in-memory body by its gzip, as koa-compress would have sent it. */
export function gzipInMemory(ctx: Koa.Context, options: ZlibOptions): void {
  const body: unknown = ctx.body;
  const bytes = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  ctx.set('Content-Encoding', 'gzip');
  ctx.remove('Content-Length');
  ctx.body = gzipSync(bytes, options); // Koa sets the gzipped Content-Length
}
