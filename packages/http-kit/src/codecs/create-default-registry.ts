/**
 * The built-in registry (docs/http.md, request bodies and responses): JSON, forms and text/* (gzip, utf-8),
 * text/event-stream (not gzipped), application/javascript (bytes, gzipped). Text without a charset is utf-8, what
 * current clients send (RFC 6657 lets each subtype choose). Each call returns a new registry, so an app may
 * register more without affecting others.
 */
import { CodecRegistry } from './codec-registry.ts';
import { FormCodec } from './form-codec.ts';
import { JsonCodec } from './json-codec.ts';
import { TextCodec } from './text-codec.ts';

export function createDefaultRegistry(): CodecRegistry {
  const text = new TextCodec();
  return new CodecRegistry()
    .register('application/json', { codec: new JsonCodec(), compress: true, defaultCharset: 'utf-8' })
    .register('application/x-www-form-urlencoded', { codec: new FormCodec(), compress: true, defaultCharset: 'utf-8' })
    .register('text/*', { codec: text, compress: true, defaultCharset: 'utf-8' })
    .register('text/event-stream', { codec: text, compress: false, defaultCharset: 'utf-8' })
    .register('application/javascript', { compress: true });
}
