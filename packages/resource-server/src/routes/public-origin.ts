/**
 * Pages that sign users in (/app, /docs) work only at the public base URL, where their redirect URIs and issuer
 * are: opened on another host they redirect there (302, path and query kept). The origin is Koa's (forwarded
 * headers only with TRUST_PROXY=1); only GET and HEAD of the pages, assets on any host.
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
