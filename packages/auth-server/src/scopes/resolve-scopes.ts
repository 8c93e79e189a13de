/**
 * The scope of a new grant from the client's allowed scopes and the `scope` parameter (RFC 6749 section 3.3): syntax
 * and limits, else invalid_scope; none asked → every allowed scope but `openid`; asked → exactly those values, each
 * granted by an allowed scope (a parent grants its sub-scopes) or `openid`; anything else invalid_scope, never dropped.
 */
import { authorityScopes, formatScopes, mayGrant, parseScopeParameter } from '@heroes/oauth-scopes';

export type ScopeResult =
  | { ok: true; scopes: string[] }
  | { ok: false; description: string };

/** Usage: `resolveScopes(['heroes:read', 'heroes:write'], 'heroes:read')` → `{ ok: true, scopes: ['heroes:read'] }` */
export function resolveScopes(allowed: readonly string[], requested: string | undefined): ScopeResult {
  if (requested === undefined || requested === '') return { ok: true, scopes: authorityScopes(allowed) };
  const parsed = parseScopeParameter(requested);
  if (!parsed.ok) return parsed;
  const refused = parsed.scopes.filter((scope) => !mayGrant(allowed, scope));
  if (refused.length > 0) return { ok: false, description: `scope not allowed for this client: ${formatScopes(refused)}` };
  return { ok: true, scopes: parsed.scopes };
}
