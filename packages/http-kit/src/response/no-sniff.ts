/**
 * `X-Content-Type-Options: nosniff` on every answer, so a browser never runs or renders a JSON error that echoes
 * input. Set first; the error handler keeps it and raw answers written outside Koa set it too.
 * Usage: app.use(noSniff) first.
 */
import type { Middleware } from 'koa';

export const NO_SNIFF: Readonly<Record<string, string>> = Object.freeze({ 'X-Content-Type-Options': 'nosniff' });

// Not async, as every pass-through layer: an async layer costs a promise and a tick per request.
export const noSniff: Middleware = function noSniff(ctx, next) {
  ctx.set(NO_SNIFF);
  return next();
};
