/**
 * Step 0 of POST /auth/code, login-form CSRF (RFC 6749 section 10.12; RFC 9700 section 4.7): an `Origin` (else a
 * `Referer`) must be the public base URL's origin, never the one the request says it was addressed to (DNS
 * rebinding); `null` or another → 403 page before the form is read; neither header (a non-browser client) is
 * accepted. Our login page is sent with `Referrer-Policy: same-origin` so browsers send its origin.
 */
import type { Context } from 'koa';

export const CROSS_SITE_REFUSED = "cross-site request refused: sign in from this service's own login page";

/** Usage: `if (!isOwnOrigin(ctx, publicBaseUrl)) return refuse(ctx)` */
export function isOwnOrigin(ctx: Context, publicBaseUrl: string): boolean {
  const origin = ctx.get('Origin');
  const referer = ctx.get('Referer');
  if (!origin && !referer) return true;
  const claimed = origin || originOf(referer);
  return claimed !== undefined && claimed === new URL(publicBaseUrl).origin;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
