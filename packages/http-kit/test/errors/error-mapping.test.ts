import test from 'ava';
import createHttpError from 'http-errors';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  RetryLaterError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  QueueFullError,
  toProblem,
} from '../../src/index.ts';
import { waitFor } from '../../src/testing/index.ts';
import { request, serve } from '../_helpers/serve.ts';

function thrower(err: unknown) {
  return (app: import('koa')) => {
    app.use(() => {
      throw err;
    });
  };
}

test('a thrown HttpError keeps its status, message, details and headers', async (t) => {
  const err = new MethodNotAllowedError(['GET', 'POST']);
  const { port } = await serve(t, thrower(err));
  const res = await request(port, { method: 'DELETE' });
  t.is(res.status, 405);
  t.is(res.headers['allow'], 'GET, POST');
  t.deepEqual(res.json(), { error: 'method not allowed' });
});

test('every subclass has its status', (t) => {
  const cases: Array<[HttpError, number]> = [
    [new BadRequestError(), 400], [new UnauthorizedError(), 401], [new ForbiddenError(), 403],
    [new NotFoundError(), 404], [new MethodNotAllowedError(), 405], [new ConflictError(), 409],
    [new PayloadTooLargeError(), 413], [new UnsupportedMediaTypeError(), 415], [new RetryLaterError(), 503],
  ];
  for (const [err, status] of cases) {
    t.is(toProblem(err).status, status);
    t.true(err instanceof HttpError);
    t.is(err.statusCode, status);
  }
  t.deepEqual(toProblem(new ConflictError()).body, { error: 'entity_already_exists' });
});

test('one way to say "retry later": RetryLaterError, 503 or 429, exposed, with its Retry-After; the queue\'s refusal is one', (t) => {
  const busy = toProblem(new QueueFullError(1));
  t.deepEqual(busy, { status: 503, body: { error: 'server busy, retry later' }, headers: { 'Retry-After': '1' } });
  t.true(new QueueFullError(1) instanceof RetryLaterError);
  const throttled = toProblem(new RetryLaterError('too many failed logins; retry after 30 s', { status: 429, retryAfterSeconds: 30 }));
  t.deepEqual(throttled, { status: 429, body: { error: 'too many failed logins; retry after 30 s' }, headers: { 'Retry-After': '30' } });
  t.is(toProblem(new RetryLaterError()).headers['Retry-After'], '5');
});

test('the registration error of the spec passes through as written', async (t) => {
  const { port } = await serve(t, thrower(new BadRequestError('username and password required.')));
  const res = await request(port);
  t.is(res.status, 400);
  t.deepEqual(res.json(), { error: 'username and password required.' });
});

test('http-errors and ctx.throw keep their status', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      if (ctx.path === '/throw') ctx.throw(401, 'no token');
      throw createHttpError(403);
    });
  });
  const res = await request(port, { path: '/throw' });
  t.is(res.status, 401);
  t.deepEqual(res.json(), { error: 'no token' });
  const forbidden = await request(port);
  t.is(forbidden.status, 403);
  t.deepEqual(forbidden.json(), { error: 'Forbidden' });
});

test('an unhandled error → 500 with a generic body; details only in the log', async (t) => {
  const { port, logs } = await serve(t, thrower(new Error('secret detail: password=hunter2')));
  const res = await request(port);
  t.is(res.status, 500);
  t.deepEqual(res.json(), { error: 'internal server error' });
  t.false(res.text.includes('hunter2'));
  const logged = await waitFor(() => logs.find((line) => line['msg'] === 'request failed'), { message: () => JSON.stringify(logs) });
  t.regex(JSON.stringify(logged), /hunter2/);
});

test('a full work queue → 503 with Retry-After, not an error in the log (load shedding as designed)', async (t) => {
  const { port, logs } = await serve(t, thrower(new QueueFullError(2)));
  const res = await request(port);
  t.is(res.status, 503);
  t.is(res.headers['retry-after'], '2');
  t.deepEqual(res.json(), { error: 'server busy, retry later' });
  // The request line is written when the response closes, after any error line of the request: once it is
  // there, the error line's absence is not a matter of timing.
  await waitFor(() => logs.some((line) => line['msg'] === 'request' && line['status'] === 503), { message: () => JSON.stringify(logs) });
  t.false(logs.some((line) => line['msg'] === 'request failed'));
});

test('a thrown non-Error value is a 500 too', async (t) => {
  const { port } = await serve(t, thrower('just a string'));
  const res = await request(port);
  t.is(res.status, 500);
  t.deepEqual(res.json(), { error: 'internal server error' });
});

test('an unexposed 5xx http-error never shows its message', (t) => {
  const problem = toProblem(createHttpError(502, 'upstream token 123'));
  t.is(problem.status, 502);
  t.deepEqual(problem.body, { error: 'bad gateway' });
});

// Shapes as thrown by @prisma/client 6.19 and @prisma/adapter-pg 6.19.
function prismaKnown(code: string, meta: Record<string, unknown> = {}) {
  return Object.assign(new Error(`Invalid prisma call: ${code}`), { name: 'PrismaClientKnownRequestError', code, meta, clientVersion: '6.19.3' });
}

test('Prisma P2002 unique violation → 409 entity_already_exists', async (t) => {
  const { port } = await serve(t, thrower(prismaKnown('P2002', { modelName: 'Hero', target: ['name'] })));
  const res = await request(port, { method: 'POST' });
  t.is(res.status, 409);
  t.deepEqual(res.json(), { error: 'entity_already_exists' });
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

test('Prisma connection errors → 503 unable to connect to database', async (t) => {
  const initError = Object.assign(new Error("Can't reach database server at `db:5432`"), {
    name: 'PrismaClientInitializationError', errorCode: 'P1001',
  });
  const { port } = await serve(t, thrower(initError));
  const res = await request(port);
  t.is(res.status, 503);
  t.deepEqual(res.json(), { error: 'unable to connect to database' });
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
  t.is(toProblem(adapter({ kind: 'postgres', code: '42601', severity: 'ERROR', message: 'syntax' })).status, 500);
});

test('raw pg errors are mapped by SQLSTATE', (t) => {
  const pg = (code: string) => Object.assign(new Error(code), { code, severity: 'ERROR' });
  t.deepEqual(toProblem(pg('23505')).body, { error: 'entity_already_exists' });
  t.is(toProblem(pg('23505')).status, 409);
  t.deepEqual(toProblem(pg('23502')), { status: 400, body: { error: 'non_null_violation' }, headers: {} });
  t.deepEqual(toProblem(pg('23503')), { status: 400, body: { error: 'foreign_key_violation' }, headers: {} });
  t.is(toProblem(pg('08006')).status, 503);
  t.is(toProblem(pg('57P01')).status, 503);
  t.is(toProblem(pg('22P02')).status, 500);
});

test('socket errors (ECONNREFUSED, also inside AggregateError) → 503', (t) => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', syscall: 'connect', errno: -111 });
  t.is(toProblem(refused()).status, 503);
  const aggregate = Object.assign(new AggregateError([refused(), refused()], ''), { code: 'ECONNREFUSED' });
  t.is(toProblem(aggregate).status, 503);
  t.is(toProblem(new Error('wrapped', { cause: refused() })).status, 503);
  t.is(toProblem(Object.assign(new Error('no syscall'), { code: 'ECONNRESET' })).status, 500);
});

test("pg's plain 'Connection terminated unexpectedly' (a pooled connection dropped mid-query) → 503 unable to connect", async (t) => {
  const dropped = new Error('Connection terminated unexpectedly');
  const { port } = await serve(t, thrower(dropped));
  const res = await request(port);
  t.is(res.status, 503);
  t.deepEqual(res.json(), { error: 'unable to connect to database' });
  t.deepEqual(toProblem(new Error('wrapped', { cause: dropped })).body, { error: 'unable to connect to database' });
  t.deepEqual(toProblem(new Error('Connection terminated')).body, { error: 'unable to connect to database' });
  t.deepEqual(toProblem(new Error('Connection terminated due to connection timeout')).body, { error: 'timed out connection to database' });
  // query_timeout: the database (or the network to it) hangs.
  t.deepEqual(toProblem(new Error('Query read timeout')).body, { error: 'timed out connection to database' });
  t.is(toProblem(new Error('Query read timeout')).status, 503);
});

test("pg-pool's plain 'timeout exceeded when trying to connect' → 503 timed out connection to database", async (t) => {
  const { port } = await serve(t, thrower(new Error('timeout exceeded when trying to connect')));
  const res = await request(port);
  t.is(res.status, 503);
  t.deepEqual(res.json(), { error: 'timed out connection to database' });
});

test('a message that merely mentions a connection is not a database outage', (t) => {
  t.is(toProblem(new Error('upstream said: Connection terminated unexpectedly')).status, 500);
  t.is(toProblem(new Error('request timeout exceeded')).status, 500);
});

test('every 503 says when to retry: Retry-After on database outages and any other 503 that names none', async (t) => {
  const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
  for (const err of [outage, new RetryLaterError(), createHttpError(503, 'down')]) {
    const problem = toProblem(err);
    t.is(problem.status, 503);
    t.is(problem.headers['Retry-After'], '5');
  }
  // A 503 that names its own wait keeps it.
  t.is(toProblem(new RetryLaterError('busy', { retryAfterSeconds: 1 })).headers['Retry-After'], '1');
  const { port } = await serve(t, thrower(outage));
  const res = await request(port);
  t.is(res.status, 503);
  t.is(res.headers['retry-after'], '5');
  t.deepEqual(res.json(), { error: 'unable to connect to database' });
});
