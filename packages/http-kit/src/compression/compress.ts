/**
 * gzip as the last step, via koa-compress with the registry as its filter.
 *
 * Rules:
 * - only gzip (br, deflate and zstd are off) — SPEC §4 speaks of gzip only;
 * - only when Accept-Encoding accepts gzip and shouldCompress() says yes;
 * - bodies smaller than `threshold` bytes are sent uncompressed (streams of
 *   unknown length are always eligible);
 * - koa-compress also skips HEAD, 204/205/304, 206, already-encoded bodies
 *   and `Cache-Control: no-transform`, and adds `Vary: Accept-Encoding`.
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
  return koaCompress(options as koaCompress.CompressOptions) as Middleware;
}
