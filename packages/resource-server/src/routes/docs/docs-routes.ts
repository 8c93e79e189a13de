/**
 * GET /openapi.json: the OpenAPI 3.1 document (openapi/openapi-document.ts).
 * GET /docs: that document rendered by Swagger UI (swagger-ui-dist, served
 * from this server under /docs/assets/: nothing from a CDN). The page and
 * its start script are ours; the script only points Swagger UI at
 * /openapi.json, so the page needs no inline script; it is served with the
 * page policy of page-security.ts (own files only, no framing), and the
 * online validator badge is off (it would load an image from elsewhere).
 */
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import type Koa from 'koa';
import mount from 'koa-mount';
import serve from 'koa-static';
import { createOpenApiDocument } from '../../openapi/openapi-document.ts';
import { dispatchByMethod } from '@heroes/http-kit';
import { setPageSecurity } from '../page-security.ts';

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

const START_SCRIPT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });\n`;

export function mountDocsRoutes(router: Router): void {
  const document = createOpenApiDocument();
  router.all('/openapi.json', dispatchByMethod([], {
    GET: [async function openApi(ctx) {
      ctx.body = document;
    }],
  }));
  router.all('/docs', dispatchByMethod([], {
    GET: [async function docsPage(ctx) {
      ctx.type = 'text/html; charset=utf-8';
      setPageSecurity(ctx);
      ctx.body = DOCS_PAGE;
    }],
  }));
  router.all('/docs/start.js', dispatchByMethod([], {
    GET: [async function docsStart(ctx) {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = START_SCRIPT;
    }],
  }));
}

/** The Swagger UI files (GET and HEAD only; anything else falls through to 404). */
export function createDocsAssets(): Koa.Middleware {
  return mount('/docs/assets', serve(swaggerUiDir, { index: false, maxAge: 86_400_000 }));
}
