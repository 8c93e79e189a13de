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
import { waitFor } from '@heroes/test-kit';
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
  // The error mapping logs (synchronously) before the answer is written: once the client has the answer,
  // the error line's absence is not a matter of timing.
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

test('a translateError option answers foreign errors; without one they are a 500', async (t) => {
  class DriverError extends Error {}
  const translateError = (err: unknown) => (err instanceof DriverError ? new ConflictError() : undefined);
  const { port } = await serve(t, thrower(new DriverError('duplicate')), { translateError });
  const res = await request(port, { method: 'POST' });
  t.is(res.status, 409);
  t.deepEqual(res.json(), { error: 'entity_already_exists' });
  t.is(toProblem(new DriverError('duplicate'), translateError).status, 409);
  t.is(toProblem(new DriverError('duplicate')).status, 500);
  t.is(toProblem(new Error("Can't reach database server at localhost:5432")).status, 500);
});

test('every 503 says when to retry: Retry-After on a 503 that names none', async (t) => {
  for (const err of [new RetryLaterError(), createHttpError(503, 'down')]) {
    const problem = toProblem(err);
    t.is(problem.status, 503);
    t.is(problem.headers['Retry-After'], '5');
  }
  // A 503 that names its own wait keeps it.
  t.is(toProblem(new RetryLaterError('busy', { retryAfterSeconds: 1 })).headers['Retry-After'], '1');
  const { port } = await serve(t, thrower(new RetryLaterError()));
  const res = await request(port);
  t.is(res.status, 503);
  t.is(res.headers['retry-after'], '5');
});
