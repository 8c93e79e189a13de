/**
 * The gzip policy's type half (koa-compress's `filter`): a type is gzipped only when its registry entry allows it;
 * unregistered types never are. The Accept-Encoding half is koa-compress's negotiation.
 */
import type { CodecRegistry } from '../codecs/codec-registry.ts';

export function shouldCompress(registry: CodecRegistry, contentType: string | undefined): boolean {
  if (!contentType) return false; // no body type: nothing to compress
  return registry.lookup(contentType)?.compress === true;
}
