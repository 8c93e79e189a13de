import test from 'ava';
import { answerDatabaseFailures, toProblem as problemOf } from '@heroes/http-kit';
import { classifyDatabaseError } from '@heroes/db/database-errors';

const mapDatabaseError = answerDatabaseFailures(classifyDatabaseError);

/** The answer a server gives: http-kit's problem body with the resource server's translation. */
const toProblem = (err: unknown) => problemOf(err, mapDatabaseError);

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

test('a database failure is never a 500: a missing table, a statement a pooler lost, any unknown code → 503; a refused value → 400', (t) => {
  t.deepEqual(classifyDatabaseError(Object.assign(new Error('no table'), { code: 'P2021' })), { kind: 'missing_table', code: 'P2021' });
  // 42P05/26000: a named statement prepared on another server connection (a transaction pooler).
  for (const err of [pgError('42P05'), pgError('26000'), pgError('40001'), pgError('XX000'), Object.assign(new Error('P2010'), { code: 'P2010' }),
    Object.assign(new Error('no table'), { code: 'P2021' })]) {
    const mapped = mapDatabaseError(err);
    t.is(mapped?.status, 503, err.message);
    t.is(mapped?.message, 'database error');
    t.truthy(mapped?.headers['Retry-After']);
  }
  t.deepEqual(classifyDatabaseError(pgError('26000')), { kind: 'other', code: '26000' });
  for (const code of ['22P02', '22001', '22003', '22021', '23514']) {
    t.deepEqual(classifyDatabaseError(pgError(code)), { kind: 'invalid_value', code });
    t.is(mapDatabaseError(pgError(code))?.status, 400);
  }
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

// Shapes as thrown by @prisma/client 6.19 and @prisma/adapter-pg 7.
function prismaKnown(code: string, meta: Record<string, unknown> = {}) {
  return Object.assign(new Error(`Invalid prisma call: ${code}`), { name: 'PrismaClientKnownRequestError', code, meta, clientVersion: '6.19.3' });
}

test('Prisma P2002 unique violation → 409 entity_already_exists', (t) => {
  const res = toProblem(prismaKnown('P2002', { modelName: 'Hero', target: ['name'] }));
  t.is(res.status, 409);
  t.deepEqual(res.body, { error: 'entity_already_exists' });
});

test('Prisma P2011 / P2012 missing required value → 400 non_null_violation', (t) => {
  for (const code of ['P2011', 'P2012']) {
    const problem = toProblem(prismaKnown(code));
    t.is(problem.status, 400);
    t.deepEqual(problem.body, { error: 'non_null_violation' });
  }
  t.deepEqual(toProblem(prismaKnown('P2003')).body, { error: 'foreign_key_violation' });
  t.is(toProblem(prismaKnown('P2025')).status, 404);
});

test('Prisma connection errors → 503 unable to connect to database', (t) => {
  const initError = Object.assign(new Error("Can't reach database server at `db:5432`"), {
    name: 'PrismaClientInitializationError', errorCode: 'P1001',
  });
  const res = toProblem(initError);
  t.is(res.status, 503);
  t.deepEqual(res.body, { error: 'unable to connect to database' });
  for (const code of ['P1001', 'P1017', 'P1000']) {
    t.deepEqual(toProblem(prismaKnown(code)), { status: 503, body: { error: 'unable to connect to database' }, headers: { 'Retry-After': '5' } });
  }
  t.deepEqual(toProblem(prismaKnown('P2024')).body, { error: 'timed out connection to database' });
  t.is(toProblem(new Error("Can't reach database server at localhost:5432")).status, 503);
});

test('driver adapter errors are mapped by cause.kind', (t) => {
  const adapter = (cause: Record<string, unknown>) => Object.assign(new Error('adapter'), { name: 'DriverAdapterError', cause });
  t.is(toProblem(adapter({ kind: 'UniqueConstraintViolation', constraint: { fields: ['name'] } })).status, 409);
  t.is(toProblem(adapter({ kind: 'NullConstraintViolation' })).status, 400);
  t.is(toProblem(adapter({ kind: 'ForeignKeyConstraintViolation' })).status, 400);
  t.deepEqual(toProblem(adapter({ kind: 'DatabaseNotReachable', host: 'x', port: 5432 })).body, { error: 'unable to connect to database' });
  t.is(toProblem(adapter({ kind: 'ConnectionClosed' })).status, 503);
  // A Prisma error that wraps an adapter error of an unmapped code: the raw SQLSTATE decides.
  const wrapped = prismaKnown('P2010', {
    driverAdapterError: adapter({ kind: 'postgres', code: '23505', severity: 'ERROR', message: 'dup' }),
  });
  t.is(toProblem(wrapped).status, 409);
  t.is(toProblem(adapter({ kind: 'postgres', code: '42601', severity: 'ERROR', message: 'syntax' })).status, 503);
});

test('raw pg errors are mapped by SQLSTATE', (t) => {
  const pg = (code: string) => Object.assign(new Error(code), { code, severity: 'ERROR' });
  t.deepEqual(toProblem(pg('23505')).body, { error: 'entity_already_exists' });
  t.is(toProblem(pg('23505')).status, 409);
  t.deepEqual(toProblem(pg('23502')), { status: 400, body: { error: 'non_null_violation' }, headers: {} });
  t.deepEqual(toProblem(pg('23503')), { status: 400, body: { error: 'foreign_key_violation' }, headers: {} });
  t.is(toProblem(pg('08006')).status, 503);
  t.is(toProblem(pg('57P01')).status, 503);
  t.is(toProblem(pg('22P02')).status, 400);
  t.is(toProblem(pg('42P05')).status, 503);
});

test('socket errors (ECONNREFUSED, also inside AggregateError) → 503', (t) => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', syscall: 'connect', errno: -111 });
  t.is(toProblem(refused()).status, 503);
  const aggregate = Object.assign(new AggregateError([refused(), refused()], ''), { code: 'ECONNREFUSED' });
  t.is(toProblem(aggregate).status, 503);
  t.is(toProblem(new Error('wrapped', { cause: refused() })).status, 503);
  t.is(toProblem(Object.assign(new Error('no syscall'), { code: 'ECONNRESET' })).status, 500);
});

test("pg's plain 'Connection terminated unexpectedly' (a pooled connection dropped mid-query) → 503 unable to connect", (t) => {
  const dropped = new Error('Connection terminated unexpectedly');
  const res = toProblem(dropped);
  t.is(res.status, 503);
  t.deepEqual(res.body, { error: 'unable to connect to database' });
  t.deepEqual(toProblem(new Error('wrapped', { cause: dropped })).body, { error: 'unable to connect to database' });
  t.deepEqual(toProblem(new Error('Connection terminated')).body, { error: 'unable to connect to database' });
  t.deepEqual(toProblem(new Error('Connection terminated due to connection timeout')).body, { error: 'timed out connection to database' });
  // query_timeout: the database (or the network to it) hangs.
  t.deepEqual(toProblem(new Error('Query read timeout')).body, { error: 'timed out connection to database' });
  t.is(toProblem(new Error('Query read timeout')).status, 503);
});

test("pg-pool's plain 'timeout exceeded when trying to connect' → 503 timed out connection to database", (t) => {
  const res = toProblem(new Error('timeout exceeded when trying to connect'));
  t.is(res.status, 503);
  t.deepEqual(res.body, { error: 'timed out connection to database' });
});

test('a message that merely mentions a connection is not a database outage', (t) => {
  t.is(toProblem(new Error('upstream said: Connection terminated unexpectedly')).status, 500);
  t.is(toProblem(new Error('request timeout exceeded')).status, 500);
});

test('a database outage is a 503 that says when to retry', (t) => {
  const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
  t.deepEqual(toProblem(outage), { status: 503, body: { error: 'unable to connect to database' }, headers: { 'Retry-After': '5' } });
});
