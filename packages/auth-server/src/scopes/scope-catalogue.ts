/**
 * The scope catalogue published as `scopes_supported` (RFC 8414 section 2):
 * what operators registered, never what requests sent.
 *
 * Rules enforced here:
 * - `openid`, plus every scope some client may be granted
 *   (scopes/allowed-scopes.ts: a client registered without allowed scopes
 *   contributes the hero scopes);
 * - the resource server's own client is left out (it may only introspect);
 * - read from oauth_clients on each call (one query), so `auth add-client`
 *   and `auth set-scopes` show at once, in every process; sorted.
 *
 * Usage: `const catalogue = createScopeCatalogue(db, 'resource-server'); await catalogue()` → ['heroes:read', 'openid']
 */
import { registeredScopes, type PrismaClient } from '@heroes/db';
import { HERO_SCOPES, OPENID } from '@heroes/oauth-scopes';

export type ScopeCatalogue = () => Promise<string[]>;

export function createScopeCatalogue(db: PrismaClient, introspectionOnlyClientId?: string): ScopeCatalogue {
  return async function scopeCatalogue() {
    const row = await registeredScopes(db, introspectionOnlyClientId, OPENID);
    const scopes = new Set<string>([OPENID, ...row.registered]);
    if (row.unscoped) for (const scope of HERO_SCOPES) scopes.add(scope);
    return [...scopes].sort();
  };
}
