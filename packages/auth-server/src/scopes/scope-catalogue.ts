/**
 * The scope catalogue published as `scopes_supported` (RFC 8414 section 2), what operators registered, never what
 * requests sent: `openid` and every scope some client may be granted (not the resource server's own client), read
 * per call so CLI changes show at once in every process; sorted.
 */
import type { PrismaClient } from '@heroes/db';
import { HERO_SCOPES, OPENID } from '@heroes/oauth-scopes';

export type ScopeCatalogue = () => Promise<string[]>;

export function createScopeCatalogue(db: PrismaClient, introspectionOnlyClientId?: string): ScopeCatalogue {
  return async function scopeCatalogue() {
    const [row] = await db.$queryRaw<{ registered: string[] | null; unscoped: boolean }[]>`
      SELECT array(SELECT DISTINCT unnest(allowed_scopes) FROM oauth_clients WHERE id IS DISTINCT FROM ${introspectionOnlyClientId ?? null}) AS registered,
             EXISTS (SELECT 1 FROM oauth_clients
                     WHERE id IS DISTINCT FROM ${introspectionOnlyClientId ?? null}
                       AND cardinality(array_remove(allowed_scopes, ${OPENID})) = 0) AS unscoped`;
    const scopes = new Set<string>([OPENID, ...(row?.registered ?? [])]);
    if (row?.unscoped) for (const scope of HERO_SCOPES) scopes.add(scope);
    return [...scopes].sort();
  };
}
