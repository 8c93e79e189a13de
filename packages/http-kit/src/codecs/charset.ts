/**
 * Charset conversion, the last step of encoding and the first of decoding, through iconv-lite (IANA names and
 * aliases). UTF-8 is decoded strictly (a malformed body is a 400) and a leading BOM dropped.
 */
import iconv from 'iconv-lite';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const strictUtf8KeepBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function isKnownCharset(charset: string): boolean {
  return iconv.encodingExists(charset);
}

export function bytesToText(bytes: Buffer, charset: string): string {
  if (isUtf8(charset)) return strictUtf8.decode(bytes);
  return iconv.decode(bytes, charset);
}

/**
 * Bytes of percent escapes inside a body (a form value) → text: as
 * bytesToText, but a BOM is content here, not a marker, so it is kept.
 */
export function escapedBytesToText(bytes: Buffer, charset: string): string {
  if (isUtf8(charset)) return strictUtf8KeepBom.decode(bytes);
  return iconv.decode(bytes, charset, { stripBOM: false });
}

export function textToBytes(text: string, charset: string): Buffer {
  if (isUtf8(charset)) return Buffer.from(text, 'utf8');
  return iconv.encode(text, charset);
}

function isUtf8(charset: string): boolean {
  const name = charset.toLowerCase();
  return name === 'utf-8' || name === 'utf8';
}
