/**
 * Reads and decodes a route's request body (docs/http.md, "Request bodies"), checks in this order: no body → 400
 * when `required`; media type, charset, Content-Encoding not accepted → 415 (before reading); over the kit's or the
 * route's limit → 413; malformed, or not well-formed Unicode → 400; wrong `expect` shape → 400; key filters → 400.
 * The bytes are read once per request; a later call decodes them again.
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

const MISSING_BODY = 'missing required body';
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
  const found = getSettings(ctx);
  if (found) return found;
  // readBody without the kit middleware: the default registry and limit.
  fallbackOptions ??= resolveOptions();
  const created: RequestSettings = { options: fallbackOptions };
  setSettings(ctx, created);
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
