/**
 * A codec turns request bodies into values and values into response bodies
 * for one media type (registered in a CodecRegistry).
 *
 * - `decode` receives text when the entry has a charset (from the request's
 *   Content-Type or the entry's `defaultCharset`), with that charset as its
 *   second argument (forms decode percent escapes in it), bytes otherwise.
 *   Throw to signal a malformed body (→ 400), or throw an HttpError for
 *   another answer (e.g. 413 for too many form parameters).
 *   A codec with `readsBytes` receives the bytes with that charset instead
 *   and decodes the charset itself (forms: one pass over the bytes).
 * - `encode` returns text (the charset is applied afterwards, as the last
 *   step) or bytes. Throw when the value cannot be encoded (→ 500).
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
