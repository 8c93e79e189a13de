/**
 * Browser pages that sign users in (/app, /docs) work only at the public
 * base URL: the OAuth redirect URIs registered for them, and the issuer
 * the app checks, are at PUBLIC_BASE_URL. Opened on another host name (e.g.
 * 127.0.0.1 for localhost), they redirect there (302, path and query kept)
 * instead of ending on a "redirect_uri does not match" page.
 * - the request's origin is Koa's (X-Forwarded-Proto/Host only with
 *   TRUST_PROXY=1);
 * - only GET and HEAD of the page paths; their static assets are served on
 *   any host.
 */
import type Koa from 'koa';

/** Usage: `app.use(redirectToPublicOrigin(config.publicBaseUrl, (path) => path === '/docs' || path.startsWith('/app')))` */
export function redirectToPublicOrigin(publicBaseUrl: string, isPage: (path: string) => boolean): Koa.Middleware {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  return async function publicOrigin(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    // Not ctx.origin: in Koa 3 that is the request's Origin header.
    if (!isPage(ctx.path) || `${ctx.protocol}://${ctx.host}` === origin) return next();
    ctx.redirect(`${base}${ctx.url}`);
  };
}

/** The sign-in pages: the web app's screens and the API documentation page (not their assets). */
export function isSignInPage(path: string): boolean {
  if (path === '/docs' || path === '/app') return true;
  return path.startsWith('/app/') && !path.startsWith('/app/assets/');
}
