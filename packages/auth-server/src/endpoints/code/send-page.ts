/**
 * Sends an HTML page of /auth/code: `text/html; charset=utf-8`, `Cache-Control: no-store`, a CSP under which nothing
 * loads, inline styles only, no framing, and forms post only to this origin and the client's registered redirect URI
 * (browsers apply form-action to the redirect that follows).
 */
import type { Context } from 'koa';

export function sendPage(ctx: Context, status: number, html: string, redirectUri?: string): void {
  const formTargets = ["'self'", redirectUri ? cspSource(redirectUri) : undefined].filter(Boolean).join(' ');
  ctx.status = status;
  ctx.body = html;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: with no-referrer browsers post the form with `Origin: null`,
  // which check-request-origin.ts refuses; other sites still get no Referer.
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; form-action ${formTargets}; frame-ancestors 'none'; base-uri 'none'`);
}

function cspSource(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : undefined;
  } catch {
    return undefined;
  }
}
