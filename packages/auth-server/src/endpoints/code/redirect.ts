/**
 * The 302 back to the registered redirect URI, kept exactly as registered, query included, for any scheme (never
 * re-serialized; RFC 6749 section 3.1.2): our parameters appended percent-encoded, `iss` always (RFC 9207) and
 * `state` when known; `Cache-Control: no-store`, `Pragma: no-cache`, no body.
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
