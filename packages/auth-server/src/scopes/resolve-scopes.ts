/**
 * The scope of a new grant (password grant, /auth/code), from the client's
 * allowed scopes and the requested `scope` parameter (RFC 6749 section
 * 3.3; Aqueduct AuthServer).
 *
 * Rules enforced here:
 * - the parameter follows RFC 6749 section 3.3 syntax and the service's
 *   limits (at most 50 values of at most 256 characters, see
 *   @heroes/oauth-scopes) → else invalid_scope;
 * - no scope requested → every allowed scope except `openid` (an ID token
 *   is never implied);
 * - a scope requested → exactly the requested values (asking for less
 *   gives less); each must be granted by an allowed scope, a parent scope
 *   granting its sub-scopes (`heroes` grants `heroes:read`); `openid` is
 *   accepted from any client, since it is no authority; any other value →
 *   invalid_scope (nothing is silently dropped).
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
