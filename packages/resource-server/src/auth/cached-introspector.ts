/**
 * Introspection results cached in an LRU (lru-cache), keyed by sha256(token).
 * - an active result lives min(ttlMs, exp − now): never past the token's expiry.
 * - an inactive result lives negativeTtlMs (0 = not cached): a dead token
 *   never comes back, so this only bounds memory spent on garbage tokens.
 * - concurrent lookups of one uncached token share one call (single flight).
 * - `clear()` (any revocation notice) empties the cache and forgets calls in
 *   flight; a call that started before a clear never writes its result.
 * - while `trusted` is false (revocation feed down) the cache is neither read
 *   nor written: every request asks the authorization server.
 * - each lookup is reported to `onLookup` (hit, miss, uncached) for metrics;
 *   a lookup that joins a call in flight counts as a hit.
 */
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { IntrospectToken } from './introspect-token.ts';
import type { TokenInfo } from './token-info.ts';

export interface CachedIntrospectorOptions {
  max: number;
  ttlMs: number;
  negativeTtlMs: number;
  onLookup?: (result: 'hit' | 'miss' | 'uncached') => void;
}

export class CachedIntrospector {
  /** False while revocations could be missed; set by the revocation listener. */
  trusted = false;
  #cache: LRUCache<string, TokenInfo>;
  #inFlight = new Map<string, Promise<TokenInfo>>();
  #generation = 0;
  #introspect: IntrospectToken;
  #options: CachedIntrospectorOptions;

  constructor(introspect: IntrospectToken, options: CachedIntrospectorOptions) {
    this.#introspect = introspect;
    this.#options = options;
    this.#cache = new LRUCache({ max: Math.max(1, options.max), ttl: Math.max(1, options.ttlMs) });
  }

  /**
   * Usage:
   *   const info = await introspector.lookup(token);
   */
  lookup(token: string): Promise<TokenInfo> {
    const report = this.#options.onLookup ?? (() => {});
    if (!this.trusted) {
      report('uncached');
      return this.#introspect(token);
    }
    const key = crypto.createHash('sha256').update(token).digest('base64url');
    const hit = this.#cache.get(key) ?? this.#inFlight.get(key);
    report(hit ? 'hit' : 'miss');
    if (hit) return Promise.resolve(hit);
    const call = this.#fetch(key, token);
    this.#inFlight.set(key, call);
    return call;
  }

  /** Forgets everything; called on every revocation notice and on reconnect. */
  clear(): void {
    this.#generation++;
    this.#cache.clear();
    this.#inFlight.clear();
  }

  get size(): number {
    return this.#cache.size;
  }

  async #fetch(key: string, token: string): Promise<TokenInfo> {
    const generation = this.#generation;
    try {
      const info = await this.#introspect(token);
      const ttl = this.#ttlFor(info);
      if (ttl > 0 && this.trusted && generation === this.#generation) this.#cache.set(key, info, { ttl });
      return info;
    } finally {
      if (generation === this.#generation) this.#inFlight.delete(key);
    }
  }

  #ttlFor(info: TokenInfo): number {
    if (!info.active) return this.#options.negativeTtlMs;
    const untilExpiry = info.exp === undefined ? Infinity : Math.floor(info.exp * 1000 - Date.now());
    return Math.min(this.#options.ttlMs, untilExpiry);
  }
}
