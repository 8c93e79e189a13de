/**
 * Reads and decodes the request body of a route (docs/http.md, "Request bodies").
 *
 * Order of checks:
 * 1. no body (no Content-Length > 0, not chunked, or 0 bytes) → 400
 *    `missing required body` when `required` (default), else `undefined`;
 * 2. media type not accepted → 415 `unsupported content type '<type>'` (read
 *    before the body is read). Accepted: `contentTypes` when given (exact or
 *    `type/*`), else any type whose registry entry has a codec; with
 *    `expect: 'bytes'` and no `contentTypes`, any type (or none);
 * 3. a charset the server does not know → 415 `invalid charset '<x>'`;
 * 4. a Content-Encoding other than identity, gzip or deflate → 415
 *    `unsupported content encoding '<coding>'` (see content-coding.ts);
 * 5. bytes over the limit (the kit's `maxBodyBytes`, or the route's smaller
 *    `maxBytes`) → 413 `entity length exceeds maximum`: at once when
 *    Content-Length announces it, else counted on the wire and again after
 *    undoing the Content-Encoding;
 * 6. charset: the Content-Type's, else the entry's default; an HttpError
 *    the codec throws is the answer (a form over 1,000 parameters → 413);
 *    malformed for
 *    the codec, or a decoded string that is not well-formed Unicode (a lone
 *    surrogate) → 400 `request entity could not be decoded`;
 * 7. `expect` shape mismatch → 400 `request entity was unexpected type`;
 * 8. key filters (accept/ignore/reject/require) → 400 `entity validation failed`.
 * The body is read (and its Content-Encoding undone) once per request; later
 * calls decode those bytes again.
 *
 * Usage:
 * ```ts
 * const hero = await readBody(ctx, { expect: 'object', ignore: ['id'], require: ['name'] });
 * ```
 */
import type { Context } from 'koa';
import { bytesToText, isKnownCharset } from '../codecs/charset.ts';
import type { CodecEntry } from '../codecs/codec.ts';
import { parseMediaType, type MediaType } from '../codecs/parse-media-type.ts';
import { BadRequestError, UnsupportedMediaTypeError } from '../errors/client-errors.ts';
import { HttpError } from '../errors/http-error.ts';
import { filterKeys, hasKeyFilters, type KeyFilters } from '../keys/filter-keys.ts';
import { resolveOptions, type ResolvedHttpKitOptions } from '../options.ts';
import { getSettings, setSettings, type RequestSettings } from '../request-settings.ts';
import { assertWellFormed, UNDECODABLE } from './assert-well-formed.ts';
import { checkShape, type ExpectedShape } from './check-shape.ts';
import { decodeContentCoding, parseContentCoding } from './content-coding.ts';
import { hasBody } from './has-body.ts';
import { readBytes } from './read-bytes.ts';

export interface ReadBodyOptions extends KeyFilters {
  /** Shape the decoded body must have. Default 'any'; 'bytes' skips decoding. */
  expect?: ExpectedShape;
  /** Default true: an empty body → 400 `missing required body`. */
  required?: boolean;
  /** Accepted media types (`type/subtype` or `type/*`). Default: any type with a codec. */
  contentTypes?: readonly string[];
  /**
   * A smaller body limit for this route, bytes (credential routes take a
   * few KB where the kit allows megabytes). Default: the kit's maxBodyBytes.
   */
  maxBytes?: number;
}

export const MISSING_BODY = 'missing required body';
export { UNDECODABLE };

let fallbackOptions: ResolvedHttpKitOptions | undefined;

export async function readBody(ctx: Context, options: ReadBodyOptions = {}): Promise<unknown> {
  const expect = options.expect ?? 'any';
  const settings = settingsOf(ctx);
  if (!hasBody(ctx.req)) return missing(options);

  const media = mediaTypeOf(ctx);
  const entry = media ? settings.options.registry.lookup(media.type) : undefined;
  assertAccepted(media, entry, options, expect);
  const decoding = expect !== 'bytes' && entry?.codec !== undefined;
  if (decoding && media?.charset !== undefined && !isKnownCharset(media.charset)) {
    throw new UnsupportedMediaTypeError(`invalid charset '${media.charset}'`, { code: 'invalid_charset' });
  }

  const codings = parseContentCoding(ctx.get('Content-Encoding') || undefined);
  const limit = Math.min(settings.options.maxBodyBytes, options.maxBytes ?? Infinity);
  settings.body ??= readBytes(ctx.req, limit).then((wire) => decodeContentCoding(wire, codings, limit));
  const bytes = await settings.body;
  if (bytes.length === 0) return missing(options);

  const value = decoding && entry?.codec ? decode(bytes, entry, media?.charset) : bytes;
  checkShape(value, expect);
  return hasKeyFilters(options) ? filterKeys(value, options) : value;
}

function settingsOf(ctx: Context): RequestSettings {
  const found = getSettings(ctx.req);
  if (found) return found;
  // readBody without the kit middleware: the default registry and limit.
  fallbackOptions ??= resolveOptions();
  const created: RequestSettings = { options: fallbackOptions };
  setSettings(ctx.req, created);
  return created;
}

function missing(options: ReadBodyOptions): undefined {
  if (options.required ?? true) throw new BadRequestError(MISSING_BODY);
  return undefined;
}

function mediaTypeOf(ctx: Context): MediaType | undefined {
  const header = ctx.get('Content-Type');
  if (header === '') return undefined;
  try {
    return parseMediaType(header);
  } catch (cause) {
    throw new UnsupportedMediaTypeError(`unsupported content type '${header}'`, { cause, code: 'unsupported_content_type' });
  }
}

function assertAccepted(
  media: MediaType | undefined, entry: CodecEntry | undefined, options: ReadBodyOptions, expect: ExpectedShape,
): void {
  const accepted = options.contentTypes
    ? media !== undefined && options.contentTypes.some((range) => matchesRange(media.type, range))
    : expect === 'bytes' || entry?.codec !== undefined;
  if (accepted) return;
  const message = media ? `unsupported content type '${media.type}'` : 'missing content type';
  throw new UnsupportedMediaTypeError(message, { code: 'unsupported_content_type' });
}

function matchesRange(type: string, range: string): boolean {
  const wanted = range.trim().toLowerCase();
  if (wanted === '*/*' || wanted === type) return true;
  return wanted.endsWith('/*') && type.startsWith(wanted.slice(0, -1));
}

function decode(bytes: Buffer, entry: CodecEntry, charset: string | undefined): unknown {
  const useCharset = charset ?? entry.defaultCharset;
  let value: unknown;
  try {
    const input = useCharset === undefined || entry.codec?.readsBytes ? bytes : bytesToText(bytes, useCharset);
    value = entry.codec?.decode(input, useCharset);
  } catch (cause) {
    if (cause instanceof HttpError) throw cause;
    throw new BadRequestError(UNDECODABLE, { cause, code: 'undecodable_entity' });
  }
  assertWellFormed(value);
  return value;
}
