/**
 * Protective headers of the edge's HTML pages (/app, /docs): each loads
 * only this server's own files, and no other site may frame it
 * (clickjacking: a hidden /app under a page of another site).
 *
 * Rules enforced here:
 * - Content-Security-Policy: scripts, styles, fonts, fetches from 'self'
 *   only (no inline script, no eval, no CDN); images also as `data:` URIs
 *   (Swagger UI's icons are inlined in its stylesheet); no plugins;
 *   `base-uri 'none'`; forms post to this origin only;
 *   `frame-ancestors 'none'` — and X-Frame-Options: DENY for browsers
 *   that predate it;
 * - Referrer-Policy: same-origin (the app's callback URL carries the code:
 *   never sent to another origin).
 *
 * Usage: `setPageSecurity(ctx)` when answering an HTML page.
 */
import type { Context } from 'koa';

export const PAGE_POLICY = [
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
