/**
 * /app: the Tour of Heroes web app (packages/web-app, docs/web-app.md).
 * - /app/assets/* are the built files (long-cached: their names carry a
 *   content hash);
 * - any other /app path is a screen of the app: index.html (no-cache, with
 *   the page policy of page-security.ts: own files only, no framing), and
 *   the app's router picks the screen from the path;
 * - not built (no dist/index.html): 503 naming the command that builds it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import mount from 'koa-mount';
import serve from 'koa-static';
import { webAppDist } from '@heroes/web-app';
import { HttpError } from '@heroes/http-kit';
import { setPageSecurity } from '../page-security.ts';

export function createAppRoute(dist: string = webAppDist): Koa.Middleware {
  const assets = mount('/app/assets', serve(path.join(dist, 'assets'), { index: false, maxAge: 365 * 86_400_000, immutable: true }));
  const indexFile = path.join(dist, 'index.html');
  return async function appRoute(ctx, next) {
    if (ctx.path !== '/app' && !ctx.path.startsWith('/app/')) return next();
    if (ctx.path.startsWith('/app/assets/')) return assets(ctx, next);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    let html: Buffer;
    try {
      html = await fs.promises.readFile(indexFile);
    } catch {
      throw new HttpError(503, 'the web app is not built: run npm run build --workspace=@heroes/web-app', { expose: true });
    }
    ctx.set('Cache-Control', 'no-cache');
    setPageSecurity(ctx);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html.toString('utf8');
  };
}
