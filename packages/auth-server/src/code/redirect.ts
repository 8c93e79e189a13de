/**
 * The 302 back to the client's registered redirect URI.
 *
 * Rules enforced here:
 * - parameters are added to the URI's query, keeping any query it has;
 * - `iss` is always added (RFC 9207; discovery advertises
 *   authorization_response_iss_parameter_supported), and `state` when known;
 * - `Cache-Control: no-store`, `Pragma: no-cache`, no body.
 */
import type { Context } from 'koa';

export function redirectBack(ctx: Context, redirectUri: string, params: Record<string, string | undefined>): void {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.append(name, value);
  }
  ctx.body = null; // Koa turns a null body into 204: set the status after it
  ctx.status = 302;
  ctx.set('Location', url.href);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
}
