/**
 * The edge's proof ids (dpop-edge-proof-ids.ts) on a real database: claimed once, in UNLOGGED tables, and after
 * those tables were emptied (what crash recovery and a failover do to them) no proof that could have been accepted
 * before is fresh again, while a proof acceptable only from then on is.
 */
import test from 'ava';
import pg from 'pg';
import { createTestPool, type TestPool } from '@heroes/test-kit';
import { claimEdgeProofIds } from '../src/repositories/dpop-edge-proof-ids.ts';
import { proofIdKey } from '../src/repositories/dpop-proof-ids.ts';

let testPool: TestPool;
let pool: pg.Pool;

test.before(async () => {
  testPool = await createTestPool();
  pool = testPool.pool;
});
test.after.always(() => testPool?.close());

const WINDOW_MS = 60_000;
/** A proof issued now: acceptable from a window ago, remembered until a window ahead. */
const issuedNow = (jti: string) => ({ id: proofIdKey('edge', 'key', jti), expiresAtMs: Date.now() + WINDOW_MS, acceptableFromMs: Date.now() - WINDOW_MS });

test.serial('an id is claimed once; a duplicate in one batch loses too; concurrent claims: exactly one wins', async (t) => {
  t.deepEqual(await claimEdgeProofIds(pool, [issuedNow('a'), issuedNow('b'), issuedNow('a')]), [true, true, false]);
  t.deepEqual(await claimEdgeProofIds(pool, [issuedNow('a')]), [false]);
  const results = await Promise.all(Array.from({ length: 8 }, () => claimEdgeProofIds(pool, [issuedNow('race')])));
  t.is(results.flat().filter(Boolean).length, 1);
});

test.serial('both tables are UNLOGGED (no WAL record per claim)', async (t) => {
  const { rows } = await pool.query<{ relname: string; relpersistence: string }>(
    "SELECT relname, relpersistence FROM pg_class WHERE relname IN ('dpop_edge_proof_ids', 'dpop_edge_proof_ids_kept_since') ORDER BY relname",
  );
  t.deepEqual(rows, [{ relname: 'dpop_edge_proof_ids', relpersistence: 'u' }, { relname: 'dpop_edge_proof_ids_kept_since', relpersistence: 'u' }]);
});

test.serial('emptied tables (crash recovery, failover): a proof acceptable before is refused, seen or not; a later one is fresh', async (t) => {
  const seen = issuedNow('seen-before-the-crash');
  t.deepEqual(await claimEdgeProofIds(pool, [seen]), [true]);
  // What recovery does to UNLOGGED tables: both are reset to empty.
  await pool.query('TRUNCATE dpop_edge_proof_ids, dpop_edge_proof_ids_kept_since');
  const unseen = issuedNow('never-seen');
  t.deepEqual(await claimEdgeProofIds(pool, [seen, unseen]), [false, false], 'either may have been accepted before the records were lost');
  const { rows } = await pool.query<{ since: Date }>('SELECT since FROM dpop_edge_proof_ids_kept_since');
  t.is(rows.length, 1, 'the claim noted since when the records are whole');
  const later = { id: proofIdKey('edge', 'key', 'issued-after'), expiresAtMs: rows[0]!.since.getTime() + 2 * WINDOW_MS, acceptableFromMs: rows[0]!.since.getTime() + 1 };
  t.deepEqual(await claimEdgeProofIds(pool, [later, later]), [true, false]);
  t.deepEqual(await claimEdgeProofIds(pool, [later]), [false]);
});

test.serial('replicas finding the tables emptied at once agree on one moment', async (t) => {
  await pool.query('TRUNCATE dpop_edge_proof_ids, dpop_edge_proof_ids_kept_since');
  await Promise.all(Array.from({ length: 6 }, (_, i) => claimEdgeProofIds(pool, [issuedNow(`replica-${i}`)])));
  const { rows } = await pool.query('SELECT since FROM dpop_edge_proof_ids_kept_since');
  t.is(rows.length, 1);
});
