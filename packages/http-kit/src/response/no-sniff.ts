/**
 * `X-Content-Type-Options: nosniff` on every answer: a browser must not
 * guess another type than the one sent (a JSON error echoing input must
 * never be run as script or rendered as HTML). Set before anything else
 * runs; the error handler keeps it (errors/handle-errors.ts), and the raw
 * answers written outside Koa set it too.
 *
 * Usage: `app.use(noSniff)` first in the app.
 */
import type { Middleware } from 'koa';

export const NO_SNIFF: Readonly<Record<string, string>> = Object.freeze({ 'X-Content-Type-Options': 'nosniff' });

// Not async, as every pass-through layer: an async layer costs a promise and a tick per request.
export const noSniff: Middleware = function noSniff(ctx, next) {
  ctx.set(NO_SNIFF);
  return next();
};
