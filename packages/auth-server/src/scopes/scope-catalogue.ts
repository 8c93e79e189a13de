/**
 * The scope catalogue published as `scopes_supported` (RFC 8414 section 2), what operators registered, never what
 * requests sent: `openid` and every scope some client may be granted (not the resource server's own client), read
 * per call so CLI changes show at once in every process; sorted.
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
