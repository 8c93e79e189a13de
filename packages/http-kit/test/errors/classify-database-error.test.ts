import test from 'ava';
import { classifyDatabaseError, mapDatabaseError } from '../../src/index.ts';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code, severity: 'FATAL' });

test('login refused and missing database are told apart, and both answer 503 to a request', (t) => {
  for (const [err, kind] of [
    [pgError('28P01'), 'auth_failed'],
    [Object.assign(new Error('P1000'), { errorCode: 'P1000' }), 'auth_failed'],
    [pgError('3D000'), 'no_database'],
    [Object.assign(new Error('wrapped'), { cause: { name: 'DriverAdapterError', cause: { kind: 'DatabaseDoesNotExist' } } }), 'no_database'],
  ] as const) {
    t.is(classifyDatabaseError(err)?.kind, kind, err.message);
    t.is(mapDatabaseError(err)?.status, 503, err.message);
  }
});

test('a missing table and an unknown code are database errors without an HTTP meaning (500)', (t) => {
  t.deepEqual(classifyDatabaseError(Object.assign(new Error('no table'), { code: 'P2021' })), { kind: 'missing_table', code: 'P2021' });
  t.deepEqual(classifyDatabaseError(pgError('22P02')), { kind: 'other', code: '22P02' });
  t.is(mapDatabaseError(pgError('22P02')), undefined);
});

test('a known meaning deeper in the cause chain wins over an unknown code on top', (t) => {
  const err = Object.assign(new Error('P2010'), { code: 'P2010', cause: pgError('23505') });
  t.is(classifyDatabaseError(err)?.kind, 'unique');
});

test("a pg client left unusable by a lost connection is an outage; anything else is not a database error", (t) => {
  t.is(classifyDatabaseError(new Error('Client has encountered a connection error and is not queryable'))?.kind, 'unreachable');
  t.is(classifyDatabaseError(new Error('boom')), undefined);
  t.is(classifyDatabaseError('boom'), undefined);
});

test('PostgreSQL\'s own time limits are timeouts: statement_timeout (57014) and lock_timeout (55P03)', (t) => {
  for (const code of ['57014', '55P03']) {
    t.deepEqual(classifyDatabaseError(pgError(code)), { kind: 'timeout', code });
  }
});
