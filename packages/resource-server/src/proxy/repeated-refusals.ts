/**
 * Repeats of a refused user login, answered at the edge (docs/http.md, "Fair forwarding"): the same attempt (path,
 * address bucket, account key, grant_type, Origin, client authentication; only the password may differ) gets the
 * authorization server's refusal again, Retry-After restated, after the same delay, unforwarded, for REFUSED_MS (at
 * most MAX_REMEMBER_MS) and only while the revocation feed is trusted (`auth users unlock` clears it). Keys are HMACs
 * with a per-process key (a client secret is never kept); at most MAX_BYTES of answers, least recently used dropped.
 */
import crypto from 'node:crypto';
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';
import { FormCodec } from '@heroes/http-kit';
import { retryAfterWords } from '@heroes/oauth-scopes';
import { addressBucket } from '@heroes/platform';
import { usernameKey } from '@heroes/text-rules/username';

/** Longest time a refusal is repeated without asking the authorization server again, ms (LOGIN_BACKOFF_MAX_MS's default). */
export const MAX_REMEMBER_MS = 15 * 60_000;
/** Most bytes of remembered answers (a refusal is a few hundred bytes, its page a few KB). */
const MAX_BYTES = 8 * 1024 * 1024;
/** Headers of the stored answer that belong to one exchange, not to the refusal. */
const PER_EXCHANGE = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'retry-after']);
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

interface Remembered {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: string;
  /** The Retry-After the body states. */
  statedSeconds: number;
  holdMs: number;
  /** performance.now() when the refusal ends (by the authorization server's count, from when it was asked). */
  ends: number;
  /** performance.now() until which the edge repeats it (ends, or sooner: MAX_REMEMBER_MS). */
  until: number;
}

export interface RefusedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export class RepeatedRefusals {
  #trusted = false;
  readonly #hmacKey = crypto.randomBytes(32);
  readonly #forms = new FormCodec();
  readonly #known = new LRUCache<string, Remembered>({
    maxSize: MAX_BYTES,
    sizeCalculation: (entry) => entry.body.length + 512,
  });

  /**
   * The attempt a forwarded request makes and the account it names (both
   * keyed hashes; the account's made only when asked: a repeat answered
   * here needs none), or undefined when it is not a login form the edge can judge.
   */
  attemptOf(clientAddress: string, path: string, headers: http.IncomingHttpHeaders, body: Buffer): { attempt: string; account(): string } | undefined {
    if (!FORM_TYPE.test(headers['content-type'] ?? '')) return undefined;
    let form: Record<string, string | string[]>;
    try {
      form = this.#forms.decode(body, 'utf-8');
    } catch {
      return undefined;
    }
    const { username } = form;
    if (typeof username !== 'string') return undefined;
    const account = usernameKey(username) ?? username;
    const material = [path, addressBucket(clientAddress), account, form['grant_type'], headers.origin, headers.authorization, form['client_id'], form['client_secret']];
    return { attempt: this.#digest(JSON.stringify(material)), account: () => this.#digest(account) };
  }

  #digest(text: string): string {
    return crypto.createHmac('sha256', this.#hmacKey).update(text).digest('base64url');
  }

  /** Whether the revocation feed (which says when a lockout ends early) is up; nothing is remembered while it is not. */
  get trusted(): boolean {
    return this.#trusted;
  }

  set trusted(trusted: boolean) {
    this.#trusted = trusted;
    if (!trusted) this.clear();
  }

  /** Forgets every refusal (a lockout ended early, or the feed that would say so was lost). */
  clear(): void {
    this.#known.clear();
  }

  /** The refusal of `attempt` while it lasts. */
  recall(attempt: string): Remembered | undefined {
    if (!this.#trusted) return undefined;
    const known = this.#known.get(attempt);
    if (known === undefined || known.until <= performance.now()) return undefined;
    return known;
  }

  /** The authorization server refused `attempt`, forwarded at `sentAt` (performance.now()), for `refusedMs`. */
  remember(attempt: string, sentAt: number, answer: RefusedAnswer, holdMs: number, refusedMs: number): void {
    const statedSeconds = Number(answer.headers['retry-after']);
    if (!this.#trusted || !Number.isSafeInteger(statedSeconds) || answer.headers['content-encoding'] !== undefined) return;
    const until = sentAt + Math.min(refusedMs, MAX_REMEMBER_MS);
    const ttl = until - performance.now();
    if (ttl <= 0) return;
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !PER_EXCHANGE.has(name)) headers[name] = value;
    this.#known.set(attempt, { status: answer.status, headers, body: answer.body.toString('utf8'), statedSeconds, holdMs, ends: sentAt + refusedMs, until }, { ttl: Math.ceil(ttl) });
  }

  /** Sends `known` on `res` after its hold, nothing if the client leaves meanwhile; `onSent` once sent. */
  answerAfterHold(known: Remembered, res: http.ServerResponse, onSent?: () => void): void {
    const timer = setTimeout(() => {
      if (res.destroyed) return;
      send(known, res);
      onSent?.();
    }, known.holdMs);
    res.once('close', () => clearTimeout(timer));
  }

  /** Refusals remembered now (tests, metrics). */
  get size(): number {
    return this.#known.size;
  }
}

function send(known: Remembered, res: http.ServerResponse): void {
  const seconds = Math.max(1, Math.ceil((known.ends - performance.now()) / 1000));
  const body = Buffer.from(known.body.replaceAll(retryAfterWords(known.statedSeconds), retryAfterWords(seconds)));
  res.statusCode = known.status;
  for (const [name, value] of Object.entries(known.headers)) if (value !== undefined) res.setHeader(name, value);
  res.setHeader('retry-after', String(seconds));
  res.setHeader('content-length', body.length);
  res.end(body);
}
