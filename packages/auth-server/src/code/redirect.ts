/**
 * The 302 back to the client's registered redirect URI.
 *
 * Rules enforced here:
 * - the registered URI is kept exactly as registered, query included
 *   (RFC 6749 section 3.1.2: "MUST retain the query component"), for any
 *   scheme (http(s) and RFC 8252 private-use schemes such as
 *   `com.example.app:/callback`): it is never parsed and re-serialized;
 * - our parameters are appended with `&` (or `?` when it has no query),
 *   each name and value percent-encoded (encodeURIComponent);
 * - `iss` is always added (RFC 9207; discovery advertises
 *   authorization_response_iss_parameter_supported), and `state` when known;
 * - `Cache-Control: no-store`, `Pragma: no-cache`, no body.
 */
import type { Context } from 'koa';

export function redirectBack(ctx: Context, redirectUri: string, params: Record<string, string | undefined>): void {
  ctx.body = null; // Koa turns a null body into 204: set the status after it
  ctx.status = 302;
  ctx.set('Location', appendQuery(redirectUri, params));
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
}

/**
 * `uri` with `params` appended to its query, the existing query untouched.
 *
 * Usage: `appendQuery('app:/cb?x=a%20b', { code: 'c' })` → `'app:/cb?x=a%20b&code=c'`
 */
export function appendQuery(uri: string, params: Record<string, string | undefined>): string {
  const added = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  if (!added) return uri;
  const queryStart = uri.indexOf('?');
  if (queryStart === -1) return `${uri}?${added}`;
  const separator = queryStart === uri.length - 1 || uri.endsWith('&') ? '' : '&';
  return `${uri}${separator}${added}`;
}
