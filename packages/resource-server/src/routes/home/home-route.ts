/**
 * `/`: a small page that says what this server is and links its three front doors (the web app,
 * the API docs, the OpenAPI document); `/favicon.ico`: the heroes shield, as SVG, for every page.
 * Both are static: no query value is ever shown (the page security of page-security.ts applies).
 */
import type Router from '@koa/router';
import { setPageSecurity } from '../page-security.ts';

const HOME_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Heroes</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
</head>
<body>
<h1>Heroes</h1>
<p>A hero-management service with its own OAuth 2.0 authorization server.</p>
<ul>
<li><a href="/app">/app</a>: the Tour of Heroes web app (sign in or create an account)</li>
<li><a href="/docs">/docs</a>: the API, to read and to try</li>
<li><a href="/openapi.json">/openapi.json</a>: the OpenAPI document</li>
<li><a href="/.well-known/oauth-authorization-server">/.well-known/oauth-authorization-server</a>: the authorization server's metadata</li>
</ul>
</body>
</html>
`;

const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><path d="M32 4 8 12v18c0 15 10 25 24 30 14-5 24-15 24-30V12z" fill="#3d5a80"/><path d="M32 16l4.7 9.5 10.5 1.5-7.6 7.4 1.8 10.4L32 40l-9.4 4.8 1.8-10.4-7.6-7.4 10.5-1.5z" fill="#ee6c4d"/></svg>';

const FAVICON_BYTES = Buffer.from(FAVICON_SVG);

export function mountHomeRoutes(router: Router): void {
  router.get('/', (ctx) => {
    setPageSecurity(ctx);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = HOME_PAGE;
  });
  router.get('/favicon.ico', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.type = 'image/svg+xml';
    ctx.body = FAVICON_BYTES;
  });
}
