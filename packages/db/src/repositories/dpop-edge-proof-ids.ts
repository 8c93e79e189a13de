/**
 * DPoP proofs already presented at the edge (RFC 9449 section 11.1), in the UNLOGGED dpop_edge_proof_ids: claimed as
 * dpop-proof-ids.ts claims (one atomic statement per batch) without a WAL record each. Crash recovery and a failover
 * empty it and its one-row dpop_edge_proof_ids_kept_since together; the next claim sets that row to now() and from
 * then on a proof is fresh only if it could not have been accepted before (docs/oauth.md, "Replays").
 */
import type { Queryable } from '../sql-pool.ts';
import type { ProofIdClaim } from './dpop-proof-ids.ts';

export interface EdgeProofIdClaim extends ProofIdClaim {
  /** The earliest moment any replica could have accepted the proof (its `iat` minus the window), ms since the epoch. */
  acceptableFromMs: number;
}

// A row is claimed only while the table holds every claim since before the proof was acceptable.
const CLAIM_SQL = `WITH kept AS (SELECT since FROM dpop_edge_proof_ids_kept_since WHERE id),
  claimed AS (
    INSERT INTO dpop_edge_proof_ids (id, expires_at)
    SELECT t.id, to_timestamp(t.exp_ms / 1000.0) FROM unnest($1::text[], $2::float8[], $3::float8[]) AS t(id, exp_ms, from_ms), kept
    WHERE to_timestamp(t.from_ms / 1000.0) > kept.since
    ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE dpop_edge_proof_ids.expires_at <= now()
    RETURNING id)
  SELECT EXISTS (SELECT 1 FROM kept) AS kept, ARRAY(SELECT id FROM claimed) AS won`;

const KEEP_FROM_NOW_SQL = 'INSERT INTO dpop_edge_proof_ids_kept_since (id, since) VALUES (true, now()) ON CONFLICT (id) DO NOTHING';

/** For each claim, in order: true when this is the first time its id is seen (within its window). */
export async function claimEdgeProofIds(db: Queryable, claims: readonly EdgeProofIdClaim[]): Promise<boolean[]> {
  const first = new Map<string, number>();
  claims.forEach((claim, index) => {
    if (!first.has(claim.id)) first.set(claim.id, index);
  });
  const ids = [...first.keys()];
  const firstClaims = ids.map((id) => claims[first.get(id)!]!);
  const claim = () => db.query({
    name: 'dpop-claim-edge-proof-ids',
    text: CLAIM_SQL,
    values: [ids, firstClaims.map((c) => c.expiresAtMs), firstClaims.map((c) => c.acceptableFromMs)],
  });
  let { rows } = await claim();
  if (rows[0]?.['kept'] !== true) {
    // The tables were emptied (crash recovery, failover): claims count from now on.
    await db.query({ name: 'dpop-keep-edge-proof-ids', text: KEEP_FROM_NOW_SQL, values: [] });
    ({ rows } = await claim());
  }
  const won = new Set(rows[0]?.['won'] as string[]);
  return claims.map((c, index) => first.get(c.id) === index && won.has(c.id));
}
