/**
 * The built-in registry (docs/http.md: request bodies and responses):
 *
 * | media type                        | codec | gzip | default charset |
 * |-----------------------------------|-------|------|-----------------|
 * | application/json                  | JSON  | yes  | utf-8           |
 * | application/x-www-form-urlencoded | form  | yes  | utf-8           |
 * | text/*                            | text  | yes  | utf-8 (*)       |
 * | text/event-stream                 | text  | no   | utf-8           |
 * | application/javascript            | —     | yes  | —               |
 *
 * (*) Aqueduct decodes text without a charset as latin1; we use utf-8, the
 * charset every current client sends by default (RFC 6657 lets each text
 * subtype choose; HTML and others default to utf-8).
 *
 * Every call returns a new registry, so an app can register more at start-up
 * without affecting others.
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
