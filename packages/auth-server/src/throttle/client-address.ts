/**
 * The client address of a request, as our app sees it (`ctx.ip`: the
 * X-Forwarded-For the edge sets, since the app trusts its proxy), kept for
 * code that runs inside oidc-provider, whose own Koa app sees only the
 * socket (the edge's address).
 *
 * Usage: `app.use(rememberClientAddress)`; later `clientAddress(ctx.req)`.
 */
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';

const addresses = new WeakMap<IncomingMessage, string>();

export const rememberClientAddress: Middleware = async function rememberClientAddress(ctx, next) {
  addresses.set(ctx.req, ctx.ip);
  await next();
};

export function clientAddress(req: IncomingMessage): string {
  return addresses.get(req) ?? req.socket.remoteAddress ?? 'unknown';
}
