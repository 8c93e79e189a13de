/**
 * Protective headers of the edge's HTML pages (/app, /docs): a Content-Security-Policy of own files only (no inline
 * script, no eval, images also `data:`), `base-uri 'none'`, forms to this origin, `frame-ancestors 'none'` with
 * X-Frame-Options: DENY (no clickjacking), Referrer-Policy: same-origin (the callback URL carries the code).
 */
import type { Context } from 'koa';

const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function setPageSecurity(ctx: Context): void {
  ctx.set('Content-Security-Policy', PAGE_POLICY);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
}
