/**
 * The client address of a request under the platform's one rule (trusted proxies here: the edge, on loopback or in
 * AUTH_TRUSTED_PROXIES), for code inside oidc-provider, whose own Koa app sees only the socket.
 * Usage: app.use(judgeClientAddress(config.trustedProxies)) first; later clientAddress(ctx.req)
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
