/**
 * Response encoding (docs/http.md, "Responses"), just inside the error handler so a failure is a clean 500 with
 * nothing written: no body → empty; streams and bytes as they are; no type → JSON utf-8; else the registry's codec
 * (`asMap()` objects mapped first) and the charset last; a type without codec needs bytes; unknown charset → 500.
 * Koa sets a type when a body is assigned: set `ctx.type` after `ctx.body`.
 */
import type { Context, Middleware } from 'koa';
import { textToBytes, isKnownCharset } from '../codecs/charset.ts';
import type { CodecRegistry } from '../codecs/codec-registry.ts';
import { parseMediaType, type MediaType } from '../codecs/parse-media-type.ts';
import { InternalServerError } from '../errors/client-errors.ts';
import type { HttpError } from '../errors/http-error.ts';
import { isStreamBody, toByteBuffer } from './is-byte-body.ts';

const DEFAULT_CONTENT_TYPE = 'application/json; charset=utf-8';

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
