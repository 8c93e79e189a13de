/**
 * /app, the Tour of Heroes web app (docs/web-app.md): /app/assets/* the built files (long-cached, hashed names), any
 * other path index.html (no-cache, page-security.ts's policy; the app's router picks the screen); not built → 503
 * naming the command that builds it.
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
