/**
 * Media type → codec entry (docs/http.md, "Responses"): exact `type/subtype`, then `type/*`, then the
 * structured-syntax suffix as `application/<suffix>` (`application/jwk-set+json` is JSON); parameters never
 * affect the choice; case-insensitive.
 * Usage: createDefaultRegistry().register('application/vnd.hero+csv', { codec, compress: true, defaultCharset: 'utf-8' })
 */
import type { Codec, CodecEntry } from './codec.ts';

export interface RegisterOptions {
  codec?: Codec;
  /** Default false: unregistered or unflagged types are never gzipped. */
  compress?: boolean;
  defaultCharset?: string;
}

const MEDIA_RANGE = /^[a-z0-9!#$&^_.+-]+\/(?:[a-z0-9!#$&^_.+-]+|\*)$/;

export class CodecRegistry {
  readonly #entries = new Map<string, CodecEntry>();

  /** Adds or replaces the entry for `mediaType` (`type/subtype` or `type/*`). */
  register(mediaType: string, options: RegisterOptions = {}): this {
    const key = mediaType.trim().toLowerCase();
    if (!MEDIA_RANGE.test(key)) throw new TypeError(`invalid media type '${mediaType}'`);
    this.#entries.set(key, Object.freeze({
      codec: options.codec,
      compress: options.compress ?? false,
      defaultCharset: options.defaultCharset?.toLowerCase(),
    }));
    return this;
  }

  /** Turns gzip on or off for an existing entry, or adds a compression-only entry. */
  setAllowsCompression(mediaType: string, allow: boolean): this {
    const current = this.#entries.get(mediaType.trim().toLowerCase());
    return this.register(mediaType, {
      ...(current?.codec ? { codec: current.codec } : {}),
      ...(current?.defaultCharset ? { defaultCharset: current.defaultCharset } : {}),
      compress: allow,
    });
  }

  /** The entry for a Content-Type value (parameters ignored), or undefined. */
  lookup(contentType: string): CodecEntry | undefined {
    const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
    const slash = essence.indexOf('/');
    if (slash <= 0) return undefined;
    const primary = essence.slice(0, slash);
    const subtype = essence.slice(slash + 1);
    const plus = subtype.lastIndexOf('+');
    return this.#entries.get(essence)
      ?? this.#entries.get(`${primary}/*`)
      ?? (plus === -1 ? undefined : this.#entries.get(`application/${subtype.slice(plus + 1)}`));
  }

  /** Registered media types, in registration order. */
  mediaTypes(): string[] {
    return [...this.#entries.keys()];
  }
}
