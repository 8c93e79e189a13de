/**
 * The scope grammar of RFC 6749 section 3.3 (printable ASCII but space, `"` and `\`, tokens separated by single
 * spaces) and this service's limits: at most MAX_SCOPE_VALUES tokens of MAX_SCOPE_LENGTH characters, checked before
 * any token is read (one linear scan); a repeated token counts once. splitScopes splits stored scope strings.
 */

/** Most scope values one request or one client registration may carry. */
export const MAX_SCOPE_VALUES = 50;
/** Longest scope value, in characters. */
export const MAX_SCOPE_LENGTH = 256;

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** True when `token` is one RFC 6749 scope-token. Usage: `isScopeToken('heroes:read')` → true */
export function isScopeToken(token: string): boolean {
  return SCOPE_TOKEN.test(token);
}

export type ScopeParseResult =
  | { ok: true; scopes: string[] }
  | { ok: false; description: string };

/**
 * Parses a `scope` parameter into distinct tokens; the description of a
 * failure is meant for an `invalid_scope` error.
 *
 * Usage: `parseScopeParameter('heroes:read heroes:write')` → `{ ok: true, scopes: ['heroes:read', 'heroes:write'] }`
 */
export function parseScopeParameter(value: string): ScopeParseResult {
  // Worst case of a valid value; anything longer has too many or too long tokens.
  if (value.length > MAX_SCOPE_VALUES * (MAX_SCOPE_LENGTH + 1)) return tooMany();
  const tokens = value.split(' ');
  if (tokens.length > MAX_SCOPE_VALUES) return tooMany();
  for (const token of tokens) {
    if (token.length > MAX_SCOPE_LENGTH) return { ok: false, description: `a scope value is longer than ${MAX_SCOPE_LENGTH} characters` };
    if (!isScopeToken(token)) return { ok: false, description: 'scope contains invalid characters' };
  }
  return { ok: true, scopes: [...new Set(tokens)] };
}

/** The wire form of a scope list: tokens joined by single spaces. Usage: `formatScopes(['a', 'b'])` → 'a b' */
export function formatScopes(scopes: Iterable<string>): string {
  return [...scopes].join(' ');
}

/**
 * The values of a scope string that is not a request's `scope` parameter: one stored or relayed by the
 * library or an introspection answer, or typed by an operator. Split on spaces; the empty values of a
 * leading, trailing or repeated space are dropped; nothing is validated (a request's parameter goes
 * through parseScopeParameter, which refuses all three).
 *
 * Usage: `splitScopes('heroes:read  openid')` → ['heroes:read', 'openid']; `splitScopes(undefined)` → []
 */
export function splitScopes(value: string | null | undefined): string[] {
  return (value ?? '').split(' ').filter((token) => token !== '');
}

function tooMany(): ScopeParseResult {
  return { ok: false, description: `more than ${MAX_SCOPE_VALUES} scope values` };
}
