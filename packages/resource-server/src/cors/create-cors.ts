/**
 * CORS for the edge's own routes (/register, /heroes, /openapi.json), with
 * @koa/cors (docs/http.md, "Cross-origin requests"):
 * - any origin by default: these routes take bearer tokens, never cookies,
 *   so a page on another origin can do nothing a script outside a browser
 *   could not; `corsOrigins` narrows it to a list;
 * - WWW-Authenticate (RFC 6750 section 3), Link (paging) and X-Request-Id
 *   are readable by scripts;
 * - the headers are on error answers too: they are set before the routes
 *   run, and http-kit turns errors into answers inside this layer.
 * /auth/* is not covered here: the authorization server answers CORS per
 * client (docs/oauth.md, "Browser origins").
 * A request without Origin gets only `Vary: Origin`, as @koa/cors gives it,
 * without entering @koa/cors (most requests: not from a browser page).
 */
import cors from '@koa/cors';
import type Koa from 'koa';

export const CORS_EXPOSED_HEADERS = ['WWW-Authenticate', 'Link', 'X-Request-Id'];

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
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
  });
  return function corsUnlessNoOrigin(ctx, next) {
    if (ctx.req.headers.origin) return withOrigin(ctx, next);
    ctx.vary('Origin');
    return next();
  };
}
