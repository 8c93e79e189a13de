/**
 * DPoP proofs already presented at the token endpoint (RFC 9449 section 11.1), in dpop_proof_ids, shared by every
 * replica of the authorization server (the edge's are in dpop-edge-proof-ids.ts): one atomic statement per batch (of
 * two claims at once exactly one wins; the same id twice in a batch, the second is a replay); an expired row may be
 * claimed again (its proof is outside the window anyway); the purge deletes them.
 * Usage: const [fresh] = await claimProofIds(pool, [{ id: proofIdKey('token', clientId, jti), expiresAtMs }])
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../sql-pool.ts';

export interface ProofIdClaim {
  /** proofIdKey(...) */
  id: string;
  /** When the id may be forgotten: the proof's `iat` plus the accepted window, ms since the epoch. */
  expiresAtMs: number;
}

/** Where the proof was presented (`token` endpoint or the `edge`), whose it is (the client id, or its key's thumbprint) and its `jti`, hashed. */
export function proofIdKey(where: string, presenter: string, jti: string): string {
  return createHash('sha256').update(`${where}\n${presenter}\n${jti}`).digest('base64url');
}

const CLAIM_SQL = `INSERT INTO dpop_proof_ids (id, expires_at)
  SELECT id, to_timestamp(exp_ms / 1000.0) FROM unnest($1::text[], $2::float8[]) AS t(id, exp_ms)
  ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE dpop_proof_ids.expires_at <= now()
  RETURNING id`;

/** For each claim, in order: true when this is the first time its id is seen (within its window). */
export async function claimProofIds(db: Queryable, claims: readonly ProofIdClaim[]): Promise<boolean[]> {
  const first = new Map<string, number>();
  claims.forEach((claim, index) => {
    if (!first.has(claim.id)) first.set(claim.id, index);
  });
  const ids = [...first.keys()];
  const { rows } = await db.query({
    name: 'dpop-claim-proof-ids',
    text: CLAIM_SQL,
    values: [ids, ids.map((id) => claims[first.get(id)!]!.expiresAtMs)],
  });
  const won = new Set(rows.map((row) => row['id'] as string));
  return claims.map((claim, index) => first.get(claim.id) === index && won.has(claim.id));
}
