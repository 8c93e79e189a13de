/**
 * Content-Type header → `{ type, charset }` using the `content-type` package
 * (RFC 9110 grammar). `type` is lower-case `type/subtype`; `charset` is the
 * charset parameter as sent, or undefined. Throws TypeError when malformed.
 */
import contentType from 'content-type';

export interface MediaType {
  type: string;
  charset: string | undefined;
}

export function parseMediaType(header: string): MediaType {
  const parsed = contentType.parse(header);
  const charset = parsed.parameters['charset'];
  return { type: parsed.type.toLowerCase(), charset: charset === undefined || charset === '' ? undefined : charset };
}
