/**
 * Introspection results cached in an LRU (lru-cache), keyed by sha256(token).
 * - an active result lives min(ttlMs, exp − now): never past the token's expiry.
 * - an inactive result lives negativeTtlMs (0 = not cached): a dead token
 *   never comes back, so this only bounds memory spent on garbage tokens.
 * - concurrent lookups of one uncached token share one call (LRUCache.fetch).
 * - `clear()` (any revocation notice) empties the cache and forgets calls in
 *   flight; a call that started before a clear never writes its result
 *   (lru-cache aborts it; ignoreFetchAbort hands its answer to the callers
 *   already waiting without storing it).
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
  #cache: LRUCache<string, TokenInfo, string>;
  #introspect: IntrospectToken;
  #options: CachedIntrospectorOptions;

  constructor(introspect: IntrospectToken, options: CachedIntrospectorOptions) {
    this.#introspect = introspect;
    this.#options = options;
    this.#cache = new LRUCache<string, TokenInfo, string>({
      max: Math.max(1, options.max),
      ttl: Math.max(1, options.ttlMs),
      ignoreFetchAbort: true,
      fetchMethod: async (_key, _stale, { context: token, options: entry }) => {
        const info = await this.#introspect(token);
        entry.ttl = Math.max(1, this.#ttlFor(info)); // 0 would mean forever: lookup() drops it instead
        return info;
      },
    });
  }

  /**
   * Usage:
   *   const info = await introspector.lookup(token);
   */
  async lookup(token: string): Promise<TokenInfo> {
    const report = this.#options.onLookup ?? (() => {});
    if (!this.trusted) {
      report('uncached');
      return this.#introspect(token);
    }
    const key = crypto.createHash('sha256').update(token).digest('base64url');
    const status: LRUCache.Status<string, TokenInfo, string> = {};
    const pending = this.#cache.fetch(key, { context: token, status });
    report(status.fetch === 'hit' || status.fetch === 'inflight' ? 'hit' : 'miss');
    const info = await pending;
    // Not to be kept (inactive with negativeTtlMs 0, expired, or the feed went down meanwhile).
    if (info && (this.#ttlFor(info) <= 0 || !this.trusted) && this.#cache.peek(key) === info) this.#cache.delete(key);
    return info ?? this.#introspect(token);
  }

  /** Forgets everything; called on every revocation notice and on reconnect. */
  clear(): void {
    this.#cache.clear();
  }

  get size(): number {
    return this.#cache.size;
  }

  #ttlFor(info: TokenInfo): number {
    if (!info.active) return this.#options.negativeTtlMs;
    const untilExpiry = info.exp === undefined ? Infinity : Math.floor(info.exp * 1000 - Date.now());
    return Math.min(this.#options.ttlMs, untilExpiry);
  }
}
