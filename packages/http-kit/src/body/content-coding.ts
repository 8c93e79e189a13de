/**
 * Request Content-Encoding (RFC 9110 section 8.4), parsed before the body is read, undone after: `identity`,
 * `gzip`/`x-gzip`, `deflate` (zlib or raw), a list undone last-first; any other → 415 with
 * `Accept-Encoding: gzip, deflate` (section 12.5.3). The body limit holds for the decoded size too (inflating stops
 * there: 413); bytes invalid for their coding → 400.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors/client-errors.ts';
import { UNDECODABLE } from './assert-well-formed.ts';

export type ContentCoding = 'gzip' | 'deflate';

const ACCEPTED_CONTENT_CODINGS = 'gzip, deflate';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);

/** The codings to undo, in the order they were applied; `identity` dropped. Throws 415. */
export function parseContentCoding(header: string | undefined): ContentCoding[] {
  if (header === undefined) return [];
  const codings: ContentCoding[] = [];
  for (const token of header.split(',')) {
    const coding = token.trim().toLowerCase();
    if (coding === '' || coding === 'identity') continue;
    if (coding === 'gzip' || coding === 'x-gzip') codings.push('gzip');
    else if (coding === 'deflate') codings.push('deflate');
    else {
      throw new UnsupportedMediaTypeError(`unsupported content encoding '${coding}'`, {
        code: 'unsupported_content_encoding',
        headers: { 'Accept-Encoding': ACCEPTED_CONTENT_CODINGS },
      });
    }
  }
  return codings;
}

/** Undoes `codings` (last applied first), never producing more than `limit` bytes. */
export async function decodeContentCoding(bytes: Buffer, codings: readonly ContentCoding[], limit: number): Promise<Buffer> {
  let out = bytes;
  for (const coding of [...codings].reverse()) {
    const options = { maxOutputLength: Math.max(limit, 1) };
    try {
      if (coding === 'gzip') out = await gunzip(out, options);
      else out = await (hasZlibHeader(out) ? inflate : inflateRaw)(out, options);
    } catch (cause) {
      if ((cause as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new PayloadTooLargeError('entity length exceeds maximum', { cause });
      }
      throw new BadRequestError(UNDECODABLE, { cause, code: 'undecodable_entity' });
    }
    if (out.length > limit) throw new PayloadTooLargeError('entity length exceeds maximum');
  }
  return out;
}

/** RFC 1950 section 2.2: CM = 8 and the header check bits. */
function hasZlibHeader(bytes: Buffer): boolean {
  const [cmf, flg] = bytes;
  return cmf !== undefined && flg !== undefined && (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}
