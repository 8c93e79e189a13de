/**
 * The allowed-scopes list of a client as an operator types it
 * (`--allowed-scopes`), checked against the RFC 6749 section 3.3 grammar
 * in @heroes/oauth-scopes.
 *
 * Rules enforced here:
 * - every token must be an RFC 6749 scope-token, else a one-line
 *   ClientRegistryError naming it;
 * - the list is split on spaces; leading, trailing and repeated spaces are
 *   collapsed (not rejected), so "a  b " is the list [a, b]: it is an
 *   operator's typing, not a `scope` request parameter (RFC 6749 section
 *   3.3 allows single spaces only there, and the token endpoint refuses
 *   others), and it is stored in the parameter's form;
 * - a repeated token is kept once (first occurrence wins the order);
 * - an empty or all-space string is the empty list (no allowed scopes);
 * - the token endpoint's limits apply (at most 50 values of at most 256
 *   characters, parseScopeParameter in @heroes/oauth-scopes): a client
 *   registered beyond them could never ask for its scopes.
 */
import { formatScopes, isScopeToken, parseScopeParameter, splitScopes } from '@heroes/oauth-scopes';
import { invalidInput } from './client-registry-error.ts';
import { printable } from './printable.ts';

/**
 * Throws `Invalid authorization scope '<token>'` unless `token` is one
 * RFC 6749 scope-token.
 *
 * Usage: `validateScope('heroes:read')`
 */
export function validateScope(token: string): string {
  if (!isScopeToken(token)) {
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
  const tokens = splitScopes(list);
  for (const token of tokens) validateScope(token);
  if (tokens.length === 0) return [];
  const parsed = parseScopeParameter(formatScopes(tokens));
  if (!parsed.ok) throw invalidInput(`Invalid allowed scopes: ${parsed.description} (the limit of the token endpoint).`);
  return parsed.scopes;
}
