/**
 * Scope lists of OAuth 2.0 clients (RFC 6749 section 3.3):
 *
 *   scope       = scope-token *( SP scope-token )
 *   scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
 *
 * Rules enforced here:
 * - a scope token is printable ASCII except space, '"' and '\';
 * - the list is split on spaces; leading, trailing and repeated spaces are
 *   collapsed (not rejected), so "a  b " is the list [a, b];
 * - a repeated token is kept once (first occurrence wins the order);
 * - an empty or all-space string is the empty list (no allowed scopes).
 */
import { invalidInput } from './client-registry-error.ts';

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** True when `token` is one RFC 6749 scope-token. */
export function isValidScope(token: string): boolean {
  return SCOPE_TOKEN.test(token);
}

/**
 * Throws `Invalid authorization scope '<token>'` unless `token` is one
 * RFC 6749 scope-token.
 *
 * Usage: `validateScope('heroes:read')`
 */
export function validateScope(token: string): string {
  if (!isValidScope(token)) {
    throw invalidInput(
      `Invalid authorization scope '${printable(token)}': a scope may contain only printable ASCII characters other than space, '"' and '\\' (RFC 6749 section 3.3).`,
    );
  }
  return token;
}

/**
 * Parses a space-separated scope list into distinct, validated tokens.
 *
 * Usage: `parseScopes('heroes  heroes:write heroes')` → `['heroes', 'heroes:write']`
 */
export function parseScopes(list: string | undefined | null): string[] {
  if (list == null) return [];
  const tokens = list.split(' ').filter((token) => token !== '');
  for (const token of tokens) validateScope(token);
  return [...new Set(tokens)];
}

/** The wire form of a scope list: tokens joined by single spaces. */
export function formatScopes(scopes: readonly string[]): string {
  return scopes.join(' ');
}

/** Shows control and non-ASCII characters as escapes so an error stays one readable line. */
export function printable(value: string): string {
  return value.replace(/[^\x20-\x7E]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
