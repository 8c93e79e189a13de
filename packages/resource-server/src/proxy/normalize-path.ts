/**
 * The path the edge judges is the path it forwards, so no later parser can turn an allowed path into another
 * (`/auth/../metrics`). `\`, `%2F`, `%5C` read as `/` and `%2E` as `.` (RFC 3986 section 2.3), once; dot-segments
 * removed by WHATWG URL, the proxy's own parser; a path not starting with `/` has no normal form.
 * Usage: normalizePath('/auth/%2e%2e/metrics') → '/metrics'
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
