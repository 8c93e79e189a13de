/**
 * Where a refused login waits out LOGIN_REFUSAL_DELAY_MS (docs/http.md, "Fair forwarding"): from the edge (marked
 * EDGE_HOLDS_REFUSALS, believed from a trusted peer only) the refusal is answered at once with HOLD_MS and, for a user
 * login, REFUSED_MS (how long the same attempt stays refused); the edge waits and repeats it. Anyone else waits here.
 * Usage: app.use(holdRefusalsAtEdge) before the endpoints; in the throttle: await delayRefusal(1_000, 60_000)
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Middleware } from 'koa';
import { EDGE_HOLDS_REFUSALS, HOLD_MS, REFUSED_MS } from '@heroes/oauth-scopes';

const held = new AsyncLocalStorage<{ ms: number; refusedMs?: number }>();

export const holdRefusalsAtEdge: Middleware = async function holdRefusalsAtEdge(ctx, next) {
  if (ctx.get(EDGE_HOLDS_REFUSALS) !== '1') return next();
  const hold: { ms: number; refusedMs?: number } = { ms: 0 };
  await held.run(hold, next);
  if (hold.ms <= 0 || ctx.headerSent) return;
  ctx.set(HOLD_MS, String(hold.ms));
  if (hold.refusedMs !== undefined) ctx.set(REFUSED_MS, String(Math.floor(hold.refusedMs)));
};

/**
 * Waits `ms`, or leaves the wait to the edge when the request came through
 * one that holds refusals; `refusedMs`: every repeat of this attempt is
 * refused that long (only for a refusal that depends on nothing but the
 * account and the client address).
 */
export async function delayRefusal(ms: number, refusedMs?: number): Promise<void> {
  if (ms <= 0) return;
  const hold = held.getStore();
  if (hold) {
    hold.ms = Math.max(hold.ms, ms);
    if (refusedMs !== undefined && refusedMs > 0) hold.refusedMs = refusedMs;
    return;
  }
  await sleep(ms);
}
