/**
 * A client's allowed scopes as an operator types them (`--allowed-scopes`): split on spaces (extra spaces collapsed,
 * a repeat kept once, empty = none), each an RFC 6749 section 3.3 scope-token, within the token endpoint's limits
 * (a client beyond them could never ask for its scopes); else a one-line ClientRegistryError naming it.
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
