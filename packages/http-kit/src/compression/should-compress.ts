/**
 * The gzip policy's type half, used as koa-compress's `filter`: a response
 * type may be gzipped only when its registry entry allows compression.
 * Unregistered types (image/png, application/octet-stream, ...) never are.
 * The Accept-Encoding half (the client must accept gzip) is koa-compress's
 * negotiation: no header → identity, `gzip;q=0` → identity, `*` → gzip.
 */
import type { CodecRegistry } from '../codecs/codec-registry.ts';

export function shouldCompress(registry: CodecRegistry, contentType: string | undefined): boolean {
  if (!contentType) return false; // no body type: nothing to compress
  return registry.lookup(contentType)?.compress === true;
}
