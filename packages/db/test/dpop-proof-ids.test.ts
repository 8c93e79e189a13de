import test from 'ava';
import pg from 'pg';
import { createTestPool, type TestPool } from '@heroes/test-kit';
import { claimProofIds, proofIdKey } from '../src/repositories/dpop-proof-ids.ts';

let testPool: TestPool;
let pool: pg.Pool;

test.before(async () => {
  testPool = await createTestPool();
  pool = testPool.pool;
});
test.after.always(() => testPool?.close());

const later = () => Date.now() + 60_000;

test('an id is claimed once; a duplicate in one batch loses too', async (t) => {
  const a = proofIdKey('edge', 'key', 'a');
  const b = proofIdKey('edge', 'key', 'b');
  t.deepEqual(await claimProofIds(pool, [{ id: a, expiresAtMs: later() }, { id: b, expiresAtMs: later() }, { id: a, expiresAtMs: later() }]), [true, true, false]);
  t.deepEqual(await claimProofIds(pool, [{ id: a, expiresAtMs: later() }]), [false]);
});

test('concurrent claims of one id from separate connections: exactly one wins', async (t) => {
  const id = proofIdKey('edge', 'key', 'race');
  const results = await Promise.all(Array.from({ length: 8 }, () => claimProofIds(pool, [{ id, expiresAtMs: later() }])));
  t.is(results.flat().filter(Boolean).length, 1);
});

test('an expired id may be claimed again', async (t) => {
  const id = proofIdKey('edge', 'key', 'old');
  t.deepEqual(await claimProofIds(pool, [{ id, expiresAtMs: Date.now() - 1_000 }]), [true]);
  t.deepEqual(await claimProofIds(pool, [{ id, expiresAtMs: later() }]), [true]);
  t.deepEqual(await claimProofIds(pool, [{ id, expiresAtMs: later() }]), [false]);
});

test('keys differ by place, presenter and jti', (t) => {
  const keys = new Set([proofIdKey('edge', 'k', 'j'), proofIdKey('token', 'k', 'j'), proofIdKey('edge', 'k2', 'j'), proofIdKey('edge', 'k', 'j2')]);
  t.is(keys.size, 4);
});
