/**
 * A codec turns request bodies into values and values into response bodies for one media type. `decode` gets text
 * in the entry's charset (or bytes; `readsBytes` codecs get bytes and the charset) and throws for a malformed body
 * (400) or an HttpError for another answer; `encode` returns text (charset applied after) or bytes, and throws
 * when it cannot (500).
 */
export interface Codec {
  decode(input: string | Buffer, charset?: string): unknown;
  /** True: `decode` gets the body's bytes (and the charset), not text. */
  readonly readsBytes?: boolean;
  encode(value: unknown): string | Uint8Array;
}

/** What a registry holds for one media type (`type/subtype` or `type/*`). */
export interface CodecEntry {
  /** Absent for compression-only entries: bodies of that type are raw bytes. */
  readonly codec?: Codec | undefined;
  /** Whether responses of this type may be gzipped. */
  readonly compress: boolean;
  /** Charset used when the Content-Type names none; absent → bytes reach the codec. */
  readonly defaultCharset?: string | undefined;
}
