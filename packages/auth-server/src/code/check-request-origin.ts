/**
 * Step 0 of POST /auth/code: login-form CSRF. A page on another site must
 * not be able to post credentials to the login form (logging the victim in
 * as the attacker, or replaying a form) and get a code
 * (RFC 6749 section 10.12; RFC 9700 section 4.7).
 *
 * Rules enforced here:
 * - a request with an `Origin` header is accepted only when it names the
 *   service's own origin: the public base URL's (PUBLIC_BASE_URL). Never the
 *   origin the request says it was addressed to (Host, X-Forwarded-Host):
 *   a page on evil.example that resolves to this server (DNS rebinding)
 *   sends `Host: evil.example` and `Origin: http://evil.example`; anything else,
 *   `null` included (sandboxed frames, pages with a no-referrer policy),
 *   → the caller answers a 403 error page, before the form is read;
 * - without `Origin`, the same rule for the origin of `Referer`; a
 *   malformed Referer is refused;
 * - with neither header (a non-browser client posting credentials
 *   directly, as the spec's flow does) → accepted;
 * - our own login page sends its origin: it is served with
 *   `Referrer-Policy: same-origin` (send-page.ts), since `no-referrer`
 *   would make browsers send `Origin: null` with the form.
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
