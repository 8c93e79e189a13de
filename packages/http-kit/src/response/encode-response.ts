/**
 * Response encoding (docs/http.md, "Responses"), the middleware just
 * inside the error handler, so an encoding failure becomes a clean 500:
 * nothing has been written when encoding runs.
 *
 * Rules:
 * - `ctx.body` null/undefined → empty body, no Content-Type, status kept
 *   (an unset body on Koa's default 404 too: no "Not Found" text);
 * - streams (Node, web, Blob, Response) are sent as they are;
 * - no Content-Type → `application/json; charset=utf-8`;
 * - `ctx.state.encodeBody === false` (see sendBytes): the body must be bytes;
 * - Buffer / Uint8Array bodies are already encoded and sent as they are;
 * - the codec is chosen by the registry (exact, then `type/*`); objects with
 *   `asMap()` (and arrays of them) are turned into maps first;
 * - a codec yielding text gets the charset last: the Content-Type's, else the
 *   entry's default (then added to the header); no charset at all, or one the
 *   server does not know → 500;
 * - a type without codec needs bytes (Buffer, Uint8Array, array of integers
 *   0–255) or, as a convenience, a string when the Content-Type names a charset;
 *   anything else → 500.
 * Note Koa sets a type when a body is assigned (string → text/plain or
 * text/html, Buffer → application/octet-stream, object → application/json,
 * overriding any earlier non-JSON type): set `ctx.type` after `ctx.body`.
 */
import type { Context, Middleware } from 'koa';
import { textToBytes, isKnownCharset } from '../codecs/charset.ts';
import type { CodecRegistry } from '../codecs/codec-registry.ts';
import { parseMediaType, type MediaType } from '../codecs/parse-media-type.ts';
import { InternalServerError } from '../errors/client-errors.ts';
import type { HttpError } from '../errors/http-error.ts';
import { isStreamBody, toByteBuffer } from './is-byte-body.ts';

export const DEFAULT_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Statuses that never carry a body (Koa strips it). */
const EMPTY_STATUSES = new Set([204, 205, 304]);

export function createResponseEncoder(registry: CodecRegistry): Middleware {
  return async function encodeResponse(ctx, next) {
    await next();
    encodeBody(ctx, registry);
  };
}

export function encodeBody(ctx: Context, registry: CodecRegistry): void {
  if (ctx.respond === false || EMPTY_STATUSES.has(ctx.status)) return;
  const body: unknown = ctx.body;
  if (body === null || body === undefined) return sendNothing(ctx);
  if (isStreamBody(body)) return;
  // Koa's response.get() returns undefined for a missing header.
  const current: unknown = ctx.response.get('Content-Type');
  if (typeof current !== 'string' || current === '') ctx.set('Content-Type', DEFAULT_CONTENT_TYPE);
  const header = String(ctx.response.get('Content-Type'));

  if (ctx.state['encodeBody'] === false) return setBytes(ctx, requireBytes(body, header));
  const bytes = Buffer.isBuffer(body) || body instanceof Uint8Array ? toByteBuffer(body) : undefined;
  if (bytes) return setBytes(ctx, bytes);

  const media = parseResponseType(header);
  const entry = registry.lookup(media.type);
  if (!entry?.codec) {
    const raw = toByteBuffer(body);
    if (raw) return setBytes(ctx, raw);
    if (typeof body === 'string' && media.charset !== undefined) return setBytes(ctx, applyCharset(body, media.charset));
    throw cannotEncode(header);
  }

  let encoded: string | Uint8Array;
  try {
    encoded = entry.codec.encode(toPlain(body));
  } catch (cause) {
    throw cannotEncode(header, cause);
  }
  if (typeof encoded !== 'string') return setBytes(ctx, toByteBuffer(encoded) ?? Buffer.alloc(0));
  const charset = media.charset ?? entry.defaultCharset;
  if (charset === undefined) throw new InternalServerError(`codec for '${media.type}' yields text but no charset is set`);
  setBytes(ctx, applyCharset(encoded, charset));
  if (media.charset === undefined) ctx.set('Content-Type', `${header}; charset=${charset}`);
}

function sendNothing(ctx: Context): void {
  const status = ctx.status;
  ctx.body = Buffer.alloc(0);
  ctx.status = status;
  ctx.remove('Content-Type');
}

function setBytes(ctx: Context, bytes: Buffer): void {
  ctx.body = bytes;
}

function requireBytes(body: unknown, header: string): Buffer {
  const bytes = toByteBuffer(body);
  if (!bytes) throw cannotEncode(header);
  return bytes;
}

/** Parsed response types; responses use a handful of Content-Type values, so each is parsed once. */
const parsedTypes = new Map<string, MediaType>();
const MAX_PARSED_TYPES = 100;

function parseResponseType(header: string): MediaType {
  const known = parsedTypes.get(header);
  if (known) return known;
  let media: MediaType;
  try {
    media = parseMediaType(header);
  } catch (cause) {
    throw new InternalServerError(`invalid response content type '${header}'`, { cause });
  }
  if (parsedTypes.size >= MAX_PARSED_TYPES) parsedTypes.clear();
  parsedTypes.set(header, media);
  return media;
}

function applyCharset(text: string, charset: string): Buffer {
  if (!isKnownCharset(charset)) throw new InternalServerError(`invalid response charset '${charset}'`);
  return textToBytes(text, charset);
}

function cannotEncode(header: string, cause?: unknown): HttpError {
  return new InternalServerError(`response body cannot be encoded as '${header}'`, { cause });
}

/** Aqueduct's Serializable.asMap(): objects that know their own map form. */
function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlainOne);
  return toPlainOne(value);
}

function toPlainOne(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { asMap?: unknown }).asMap === 'function') {
    return (value as { asMap(): unknown }).asMap();
  }
  return value;
}
