/**
 * A refused login's deliberate delay spent at the edge, not on a connection to the authorization server (docs/http.md,
 * "Fair forwarding"; headers in @heroes/oauth-scopes' refusal-hold-headers.ts): the answer is read whole, connection
 * and address slot given back, and sent to the client once the delay is over.
 */
import type http from 'node:http';
import { HOLD_MS, REFUSED_MS } from '@heroes/oauth-scopes';

export { EDGE_HOLDS_REFUSALS } from '@heroes/oauth-scopes';
/** Longest held answer kept in memory; a longer one is relayed at once (refusals are a few hundred bytes). */
const MAX_HELD_BYTES = 64 * 1024;
/**
 * The hold the upstream asked for (ms, 0 for none) and how long the attempt
 * stays refused (ms, 0 when not said: repeated-refusals.ts); both headers
 * are removed from the answer.
 */
export function takeHold(proxyRes: http.IncomingMessage): { holdMs: number; refusedMs: number } {
  const hold = proxyRes.headers[HOLD_MS];
  const refused = proxyRes.headers[REFUSED_MS];
  delete proxyRes.headers[HOLD_MS];
  delete proxyRes.headers[REFUSED_MS];
  const holdMs = Math.min(positiveMs(hold), 60_000);
  return { holdMs, refusedMs: holdMs > 0 ? positiveMs(refused) : 0 };
}

function positiveMs(value: string | string[] | undefined): number {
  const ms = Number(value);
  return typeof value === 'string' && Number.isSafeInteger(ms) && ms > 0 ? ms : 0;
}

/**
 * Reads `proxyRes` whole (freeing its upstream connection), then calls
 * `send(body)` after `holdMs`, unless the client left meanwhile; `onRead`
 * runs once the upstream answer is read, with its body. An answer too long
 * to hold is given to `stream` as it is.
 */
export function holdAnswer(proxyRes: http.IncomingMessage, res: http.ServerResponse, holdMs: number, handlers: {
  onRead(body: Buffer): void;
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
    const body = Buffer.concat(chunks, length);
    handlers.onRead(body);
    const timer = setTimeout(() => {
      if (!res.destroyed) handlers.send(body);
    }, holdMs);
    res.once('close', () => clearTimeout(timer));
  });
}
