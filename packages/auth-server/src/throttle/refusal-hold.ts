/**
 * Where a refused login waits out LOGIN_REFUSAL_DELAY_MS (docs/http.md,
 * "Fair forwarding"). A request from the edge says it holds such answers
 * itself (EDGE_HOLDS_REFUSALS, believed only from a trusted peer: the
 * forwarding filter strips it from anyone else); then the refusal is
 * answered at once with HOLD_MS and the edge sends it to the client after
 * the delay, so a thousand waiting guessers hold no connection between the
 * edge and this server. Any other caller waits here, as before.
 *
 * Usage:
 *   app.use(holdRefusalsAtEdge); // before the endpoints
 *   await delayRefusal(1_000);   // in the throttle, before throwing its 429
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Middleware } from 'koa';
import { EDGE_HOLDS_REFUSALS, HOLD_MS } from '@heroes/oauth-scopes';

const held = new AsyncLocalStorage<{ ms: number }>();

export const holdRefusalsAtEdge: Middleware = async function holdRefusalsAtEdge(ctx, next) {
  if (ctx.get(EDGE_HOLDS_REFUSALS) !== '1') return next();
  const hold = { ms: 0 };
  await held.run(hold, next);
  if (hold.ms > 0 && !ctx.headerSent) ctx.set(HOLD_MS, String(hold.ms));
};

/** Waits `ms`, or leaves the wait to the edge when the request came through one that holds refusals. */
export async function delayRefusal(ms: number): Promise<void> {
  if (ms <= 0) return;
  const hold = held.getStore();
  if (hold) {
    hold.ms = Math.max(hold.ms, ms);
    return;
  }
  await sleep(ms);
}
