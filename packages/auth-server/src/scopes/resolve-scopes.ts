/**
 * The scope of a new token, from the client's allowed scopes and the
 * requested `scope` parameter (issue 4, point 4; Aqueduct AuthServer).
 *
 * Rules enforced here:
 * - a client without allowed scopes gets an unscoped token: the request's
 *   scope is ignored (Aqueduct);
 * - a client with allowed scopes: no scope requested → all allowed ones;
 *   each requested scope must be granted by an allowed one, a parent scope
 *   granting its sub-scopes (`heroes` grants `heroes:read`, see
 *   @heroes/oauth-scopes), and is granted as requested; any other → invalid_scope
 *   (nothing is silently dropped);
 * - the request's scope must follow RFC 6749 section 3.3 syntax
 *   (@heroes/oauth-scopes).
 */
import { formatScopes, grantsScope, isScopeToken } from '@heroes/oauth-scopes';

export type ScopeResult =
  | { ok: true; scope: string | undefined }
  | { ok: false; description: string };

export function resolveScopes(allowed: readonly string[], requested: string | undefined): ScopeResult {
  if (requested !== undefined && requested !== '' && !requested.split(' ').every(isScopeToken)) {
    return { ok: false, description: 'scope contains invalid characters' };
  }
  if (allowed.length === 0) return { ok: true, scope: undefined };
  if (requested === undefined || requested === '') return { ok: true, scope: formatScopes(allowed) };
  const wanted = [...new Set(requested.split(' '))];
  const refused = wanted.filter((scope) => !allowed.some((parent) => grantsScope(parent, scope)));
  if (refused.length > 0) return { ok: false, description: `scope not allowed for this client: ${refused.join(' ')}` };
  return { ok: true, scope: formatScopes(wanted) };
}
