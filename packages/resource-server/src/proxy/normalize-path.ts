/**
 * The path the edge judges, and the path it forwards: one and the same, so
 * no later parser can turn a path the edge let through into another one
 * (`/auth/../metrics` was judged as /auth/*, then resolved to /metrics by
 * the proxy's URL parser and answered by the authorization server).
 *
 * Rules enforced here:
 * - `\` and the percent-encoded separators `%2F`, `%5C` are read as `/`,
 *   `%2E` as `.` (RFC 3986 section 2.3: an encoded unreserved character is
 *   that character), once: `%252e` stays what it is;
 * - dot-segments are then removed (RFC 3986 section 5.2.4) by WHATWG URL,
 *   the parser the proxy itself uses, so nothing is left for it to resolve;
 * - a path that does not start with `/` has no normalised form (undefined).
 *
 * Usage: `normalizePath('/auth/%2e%2e/metrics')` → `/metrics`
 */
export function normalizePath(rawPath: string): string | undefined {
  if (!rawPath.startsWith('/')) return undefined;
  const unified = rawPath.replace(/%2f|%5c/gi, '/').replace(/%2e/gi, '.').replaceAll('\\', '/');
  try {
    // The path after an origin (never resolved against one): `//host/x` stays a path.
    return new URL(`http://edge.invalid${unified}`).pathname;
  } catch {
    return undefined;
  }
}
