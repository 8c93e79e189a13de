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

/**
 * Characters a path may hold and still be its own normalised form: RFC 3986
 * pchar and `/` without `%` (no percent-encoding to read), `.` (no
 * dot-segment) and `\` (no backslash to unify). normalizePath() changes
 * none of them, and WHATWG URL's path state keeps each as it is: none is
 * in the path percent-encode set (C0, space, `"`, `#`, `<`, `>`, `?`, `^`,
 * `` ` ``, `{`, `}`), none is a tab or newline it strips, and without `.`
 * there is no single- or double-dot segment to remove. So for such a path
 * normalizePath(path) === path (the table in
 * test/proxy/normalize-path.test.ts checks it), and a caller may judge it
 * as it is, without the parse.
 */
const OWN_NORMAL_FORM = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@/]*$/;

/** True when normalizePath(path) is `path` itself (see OWN_NORMAL_FORM); false says nothing. */
export function isOwnNormalForm(path: string): boolean {
  return OWN_NORMAL_FORM.test(path);
}
