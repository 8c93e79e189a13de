/**
 * GET /openapi.json and GET /docs, that document in Swagger UI served from this server (nothing from a CDN, no
 * inline script, the validator badge off). "Authorize" uses the built-in public client with PKCE and
 * /docs/oauth2-redirect.html; "Try it out" of a create sends a new Idempotency-Key unless one was typed. Pages carry
 * page-security.ts's policy.
 */
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import type Koa from 'koa';
import mount from 'koa-mount';
import serve from 'koa-static';
import { createOpenApiDocument } from '../../openapi/openapi-document.ts';
import { dispatchByMethod } from '@heroes/http-kit';
import { setPageSecurity } from '../page-security.ts';
import { APP_CLIENT_ID, docsRedirectUri } from '../../config/ensure-app-client.ts';

const swaggerUiDir: string = (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();

const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Heroes API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/start.js"></script>
</body>
</html>
`;

/** Swagger UI's redirect page, with its script from our assets. */
const REDIRECT_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Heroes API: signing in</title></head>
<body><script src="/docs/assets/oauth2-redirect.js"></script></body>
</html>
`;

/** Swagger UI's requestInterceptor: a fresh key for each create sent without one. */
const ADD_IDEMPOTENCY_KEY = `function (request) {
  var path = new URL(request.url, location.href).pathname;
  var given = Object.keys(request.headers || {}).some(function (name) { return name.toLowerCase() === 'idempotency-key'; });
  if (request.method === 'POST' && /\\/(heroes|register)\\/?$/.test(path) && !given) {
    // getRandomValues: also on a plain-http host name, where randomUUID is missing.
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    request.headers['Idempotency-Key'] = '"' + Array.from(bytes, function (b) { return b.toString(16).padStart(2, '0'); }).join('') + '"';
  }
  return request;
}`;

function startScript(publicBaseUrl: string): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const options = { url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, oauth2RedirectUrl: docsRedirectUri(base) };
  const oauth = { clientId: APP_CLIENT_ID, usePkceWithAuthorizationCodeGrant: true, scopes: 'heroes:read heroes:write' };
  return `window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(options)}, { requestInterceptor: ${ADD_IDEMPOTENCY_KEY} }));
window.ui.initOAuth(${JSON.stringify(oauth)});
`;
}

export function mountDocsRoutes(router: Router, { publicBaseUrl }: { publicBaseUrl: string }): void {
  const document = createOpenApiDocument();
  router.all('/openapi.json', dispatchByMethod([], { GET: [async function openApi(ctx) { ctx.body = document; }] }));
  const files: [path: string, type: string, body: string][] = [
    ['/docs', 'text/html; charset=utf-8', DOCS_PAGE],
    ['/docs/oauth2-redirect.html', 'text/html; charset=utf-8', REDIRECT_PAGE],
    ['/docs/start.js', 'text/javascript; charset=utf-8', startScript(publicBaseUrl)],
  ];
  for (const [path, type, body] of files) {
    router.all(path, dispatchByMethod([], {
      GET: [async function docsFile(ctx) {
        ctx.type = type;
        if (type.startsWith('text/html')) setPageSecurity(ctx); // the page policy guards documents, not scripts
        ctx.body = body;
      }],
    }));
  }
}

/** The Swagger UI files (GET and HEAD only; anything else falls through to 404). */
export function createDocsAssets(): Koa.Middleware {
  return mount('/docs/assets', serve(swaggerUiDir, { index: false, maxAge: 86_400_000 }));
}
