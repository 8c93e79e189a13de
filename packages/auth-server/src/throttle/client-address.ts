/**
 * The client address of a request (the platform's one client-address rule: the
 * right-most X-Forwarded-For entry that is not a trusted proxy; here the
 * edge, on loopback or in AUTH_TRUSTED_PROXIES), for code that runs inside
 * oidc-provider, whose own Koa app sees only the socket (the edge).
 *
 * Usage: `app.use(judgeClientAddress(config.trustedProxies))` first; later `clientAddress(ctx.req)`.
 */
import type { IncomingMessage } from 'node:http';
import { clientAddressOf, createClientAddress, type Cidr } from '@heroes/platform';
import type { Middleware } from 'koa';

export function judgeClientAddress(trustedProxies: readonly Cidr[]): Middleware {
  return createClientAddress({ kind: 'networks', networks: trustedProxies });
}

export function clientAddress(req: IncomingMessage): string {
  return clientAddressOf(req).address;
}
