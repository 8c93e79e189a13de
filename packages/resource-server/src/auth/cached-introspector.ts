/**
 * Introspection results cached by the token's sha256 (what revocation notices name): active ones in an LRU, never past
 * the token's expiry; inactive ones in a small LRU of their own (random tokens never evict a valid one); concurrent
 * lookups share one call. `revoked(notice)` evicts what it names (anything wider clears all), calls in flight never
 * store; while untrusted (feed down) it is bypassed. Each lookup is a span `introspection` (cache hit, miss, uncached).
 */
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { startChildSpan, withinSpan } from '@heroes/platform';
import type { RevokedTokens } from '@heroes/oauth-scopes';
import type { IntrospectToken } from './introspect-token.ts';
import { INACTIVE, type TokenInfo } from './token-info.ts';

export interface CachedIntrospectorOptions {
  max: number;
  ttlMs: number;
  /** Entries of the inactive-result cache. Default: a tenth of `max`, at least 1. */
  negativeMax?: number;
  negativeTtlMs: number;
  onLookup?: (result: 'hit' | 'miss' | 'uncached') => void;
}

/** Grant index key of entries whose answer named no grant. */
const NO_GRANT = '';

export class CachedIntrospector {
  /** False while revocations could be missed; set by the revocation listener. */
  trusted = false;
  readonly #active: LRUCache<string, TokenInfo>;
  readonly #inactive: LRUCache<string, true>;
  /** grantId → keys of its cached active entries (kept in step by the LRU's dispose). */
  readonly #byGrant = new Map<string, Set<string>>();
  readonly #inFlight = new Map<string, Promise<TokenInfo>>();
  /** Bumped by every notice: a call that started before it never writes. */
  #epoch = 0;
  readonly #introspect: IntrospectToken;
  readonly #options: CachedIntrospectorOptions;

  constructor(introspect: IntrospectToken, options: CachedIntrospectorOptions) {
    this.#introspect = introspect;
    this.#options = options;
    this.#active = new LRUCache<string, TokenInfo>({
      max: Math.max(1, options.max),
      dispose: (info, key) => this.#unindex(info, key),
    });
    this.#inactive = new LRUCache<string, true>({ max: Math.max(1, options.negativeMax ?? Math.ceil(options.max / 10)) });
  }

  /**
   * Usage:
   *   const info = await introspector.lookup(token);
   */
  lookup(token: string): Promise<TokenInfo> {
    const span = startChildSpan('introspection');
    if (!this.trusted) {
      this.#report(span, 'uncached');
      return withinSpan(span, () => this.#introspect(token));
    }
    const key = crypto.createHash('sha256').update(token).digest('hex');
    const cached = this.#active.get(key) ?? (this.#inactive.get(key) ? INACTIVE : undefined) ?? this.#inFlight.get(key);
    if (cached === undefined) {
      this.#report(span, 'miss');
      return withinSpan(span, () => this.#call(key, token));
    }
    // A hit starts nothing: its span ends here, never the current one (docs/operations.md, "Tracing").
    this.#report(span, 'hit');
    span.end();
    return Promise.resolve(cached);
  }

  #report(span: ReturnType<typeof startChildSpan>, result: 'hit' | 'miss' | 'uncached'): void {
    span.setAttribute('heroes.introspection.cache', result);
    this.#options.onLookup?.(result);
  }

  /** Drops what a revocation notice names (undefined: everything). */
  revoked(notice: RevokedTokens | undefined): void {
    if (!notice || notice.clientId !== undefined || notice.userId !== undefined || (notice.grantId === undefined && notice.tokenHash === undefined)) return this.clear();
    this.#forgetCallsInFlight();
    if (notice.tokenHash !== undefined) this.#active.delete(notice.tokenHash.toLowerCase());
    if (notice.grantId !== undefined) {
      for (const grant of [notice.grantId, NO_GRANT]) {
        for (const key of [...(this.#byGrant.get(grant) ?? [])]) this.#active.delete(key);
      }
    }
  }

  /** Forgets everything; called for client-wide notices and on reconnect of the feed. */
  clear(): void {
    this.#forgetCallsInFlight();
    this.#active.clear();
    this.#inactive.clear();
  }

  /** Cached active entries. */
  get size(): number {
    return this.#active.size;
  }

  #call(key: string, token: string): Promise<TokenInfo> {
    const epoch = this.#epoch;
    const call = this.#introspect(token).then((info) => {
      if (epoch === this.#epoch && this.trusted) this.#store(key, info);
      return info;
    });
    this.#inFlight.set(key, call);
    const forget = () => {
      if (this.#inFlight.get(key) === call) this.#inFlight.delete(key);
    };
    call.then(forget, forget);
    return call;
  }

  #store(key: string, info: TokenInfo): void {
    if (!info.active) {
      if (this.#options.negativeTtlMs > 0) this.#inactive.set(key, true, { ttl: this.#options.negativeTtlMs });
      return;
    }
    const untilExpiry = info.exp === undefined ? Infinity : Math.floor(info.exp * 1000 - Date.now());
    const ttl = Math.min(this.#options.ttlMs, untilExpiry);
    if (ttl <= 0) return;
    this.#active.set(key, info, { ttl });
    const grant = info.grantId ?? NO_GRANT;
    let keys = this.#byGrant.get(grant);
    if (!keys) this.#byGrant.set(grant, (keys = new Set()));
    keys.add(key);
  }

  #unindex(info: TokenInfo, key: string): void {
    const grant = info.grantId ?? NO_GRANT;
    const keys = this.#byGrant.get(grant);
    keys?.delete(key);
    if (keys?.size === 0) this.#byGrant.delete(grant);
  }

  #forgetCallsInFlight(): void {
    this.#epoch++;
    this.#inFlight.clear();
  }
}
