/**
 * The deliberate delay of a refused login (LOGIN_REFUSAL_DELAY_MS) spent at
 * the edge, not on a connection to the authorization server (docs/http.md,
 * "Fair forwarding"; the headers: @heroes/oauth-scopes' refusal-hold-headers.ts):
 * the edge reads such an answer whole, gives the connection and the
 * address's slot back, and sends the answer to the client when the delay
 * is over. A client cannot set the request header through the edge (it is
 * replaced) and the authorization server believes it only from a trusted
 * peer (its forwarding filter), like X-Forwarded-For.
 */
import type http from 'node:http';
import { HOLD_MS } from '@heroes/oauth-scopes';

export { EDGE_HOLDS_REFUSALS } from '@heroes/oauth-scopes';
/** Longest held answer kept in memory; a longer one is relayed at once (refusals are a few hundred bytes). */
const MAX_HELD_BYTES = 64 * 1024;

/** The hold the upstream asked for (ms, removed from its headers), 0 for none. */
export function takeHold(proxyRes: http.IncomingMessage): number {
  const value = proxyRes.headers[HOLD_MS];
  if (value === undefined) return 0;
  delete proxyRes.headers[HOLD_MS];
  const ms = Number(value);
  return Number.isSafeInteger(ms) && ms > 0 ? Math.min(ms, 60_000) : 0;
}

/**
 * Reads `proxyRes` whole (freeing its upstream connection), then calls
 * `send(body)` after `holdMs`, unless the client left meanwhile; `onRead`
 * runs once the upstream answer is read. An answer too long to hold is
 * given to `stream` as it is.
 */
export function holdAnswer(proxyRes: http.IncomingMessage, res: http.ServerResponse, holdMs: number, handlers: {
  onRead(): void;
  send(body: Buffer): void;
  stream(): void;
}): void {
  const declared = Number(proxyRes.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_HELD_BYTES) {
    handlers.stream();
    return;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  proxyRes.on('data', (chunk: Buffer) => {
    length += chunk.length;
    chunks.push(chunk);
    if (length > MAX_HELD_BYTES) res.destroy(); // a chunked answer longer than any refusal: not worth holding
  });
  proxyRes.on('end', () => {
    handlers.onRead();
    const timer = setTimeout(() => {
      if (!res.destroyed) handlers.send(Buffer.concat(chunks, length));
    }, holdMs);
    res.once('close', () => clearTimeout(timer));
  });
}
