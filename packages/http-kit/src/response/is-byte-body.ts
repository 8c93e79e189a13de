/**
 * Body kinds that are sent as they are (no codec): byte arrays and streams.
 */
import { Stream } from 'node:stream';

/** Node streams, web ReadableStreams, Blobs and fetch Responses (Koa sends them as bytes). */
export function isStreamBody(body: unknown): boolean {
  return body instanceof Stream || body instanceof ReadableStream || body instanceof Blob || body instanceof Response;
}

/** Buffer / Uint8Array / array of integers 0–255 → Buffer; anything else → undefined. */
export function toByteBuffer(body: unknown): Buffer | undefined {
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (Array.isArray(body) && body.every((n) => Number.isInteger(n) && n >= 0 && n <= 255)) return Buffer.from(body);
  return undefined;
}
