/**
 * CORS for the edge's own routes with @koa/cors (docs/http.md, "Cross-origin requests"): any origin by default
 * (bearer tokens, never cookies; `corsOrigins` narrows it), the DPoP header allowed, WWW-Authenticate, Link and
 * X-Request-Id exposed, on error answers too. /auth/* is the authorization server's (per client). A request without
 * Origin only gets `Vary: Origin`.
 */
import cors from '@koa/cors';
import type Koa from 'koa';

const CORS_EXPOSED_HEADERS = ['WWW-Authenticate', 'Link', 'X-Request-Id'];

export function createCors(allowedOrigins: readonly string[]): Koa.Middleware {
  const allowed = new Set(allowedOrigins);
  const withOrigin = cors({
    // '' leaves the answer without CORS headers: no Origin (not a browser's cross-origin call), or one not listed.
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      if (!origin) return '';
      if (allowed.size === 0) return '*';
      return allowed.has(origin) ? origin : '';
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'DPoP', 'Idempotency-Key', 'X-Request-Id'],
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
  return function corsUnlessNoOrigin(ctx, next) {
    if (ctx.req.headers.origin) return withOrigin(ctx, next);
    ctx.vary('Origin');
    return next();
  };
}
