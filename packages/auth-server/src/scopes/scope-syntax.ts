/**
 * The scope grammar of RFC 6749 section 3.3, the one definition in the
 * package (the client registry and the token/code endpoints both use it):
 *
 *   scope       = scope-token *( SP scope-token )
 *   scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
 *
 * Rules enforced here:
 * - a scope token is printable ASCII except space, '"' and '\';
 * - a scope list on the wire is tokens separated by single spaces (no
 *   leading, trailing or repeated space).
 */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** True when `token` is one RFC 6749 scope-token. Usage: `isValidScope('heroes:read')` */
export function isValidScope(token: string): boolean {
  return SCOPE_TOKEN.test(token);
}

/** True when `list` is an RFC 6749 `scope` value. Usage: `isValidScopeList('a b')` → true */
export function isValidScopeList(list: string): boolean {
  return list.split(' ').every(isValidScope);
}

/** The wire form of a scope list: tokens joined by single spaces. */
export function formatScopes(scopes: readonly string[]): string {
  return scopes.join(' ');
}
