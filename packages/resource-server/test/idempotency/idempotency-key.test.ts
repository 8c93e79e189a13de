/**
 * Creates with an Idempotency-Key (routes/idempotency/create-once.ts): a repeat gets the first answer and creates
 * nothing, another body under the key is 422, a repeat while the first runs 409, a bad header 400; keys are per
 * caller and the stored record holds no password.
 */
import test from 'ava';
import pg from 'pg';
import { waitFor } from '@heroes/test-kit';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;
const alice = 'alice-token';
const otherClient = 'other-client-token';

test.before(async () => {
  auth = await startFakeAuthServer();
  auth.tokens.set(alice, activeToken());
  auth.tokens.set(otherClient, activeToken({ client_id: 'another-app' }));
  rs = await startInProcess(auth.url);
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

const createHero = (name: string, key: string | undefined, token = alice) =>
  request(`${rs.url}/heroes`, { method: 'POST', headers: { ...bearer(token), ...(key === undefined ? {} : { 'idempotency-key': key }) }, json: { name } });

const register = (username: string, password: string, key: string) =>
  request(`${rs.url}/register`, { method: 'POST', headers: { 'idempotency-key': key }, json: { username, password } });

async function heroCount(name: string): Promise<number> {
  return rs.db.hero.count({ where: { name } });
}

test('a repeated POST /heroes with the same key and body gets the first answer and creates nothing', async (t) => {
  const first = await createHero('Idem Once', '"hero-key-1"');
  t.is(first.status, 200);
  const again = await createHero('Idem Once', '"hero-key-1"');
  t.is(again.status, 200);
  t.deepEqual(again.body, first.body);
  t.is(await heroCount('Idem Once'), 1);
  // Without the key the same body is a new request: the name is taken.
  t.is((await createHero('Idem Once', undefined)).status, 409);
});

test('the same key with another body → 422, nothing created', async (t) => {
  t.is((await createHero('Idem First', '"hero-key-2"')).status, 200);
  const other = await createHero('Idem Second', '"hero-key-2"');
  t.is(other.status, 422);
  t.like(other.body, { error: 'this Idempotency-Key was used for another request; use a new key for each request' });
  t.is(await heroCount('Idem Second'), 0);
});

test('keys are per caller: another client may use the same key for its own create', async (t) => {
  t.is((await createHero('Idem Alice', '"shared-key"')).status, 200);
  const theirs = await createHero('Idem Other App', '"shared-key"', otherClient);
  t.is(theirs.status, 200);
  t.is((theirs.body as { name: string }).name, 'Idem Other App');
});

test('an error answer is not kept: the repeat runs again', async (t) => {
  t.is((await createHero('Idem Taken', undefined)).status, 200);
  t.is((await createHero('Idem Taken', '"hero-key-3"')).status, 409);
  await rs.db.hero.deleteMany({ where: { name: 'Idem Taken' } });
  const retried = await createHero('Idem Taken', '"hero-key-3"');
  t.is(retried.status, 200);
  t.is(await heroCount('Idem Taken'), 1);
});

for (const [i, bad] of ['', 'unquoted-key', '""', `"${'k'.repeat(256)}"`, '"tab\there"', '"a", "b"', '12345', '"é"'].entries()) {
  test(`Idempotency-Key ${JSON.stringify(bad.slice(0, 20))} → 400, nothing created`, async (t) => {
    const name = `Idem Bad ${i}`;
    const res = await createHero(name, bad);
    t.is(res.status, 400);
    t.like(res.body, { error: `'Idempotency-Key' must be one quoted string of 1 to 255 printable ASCII characters, e.g. "8e03978e-40d5-43e8-bc93-6894a57f9324"` });
    t.is(await heroCount(name), 0);
  });
}

test('the header sent twice → 400', async (t) => {
  const res = await fetch(`${rs.url}/heroes`, {
    method: 'POST',
    headers: [['authorization', `Bearer ${alice}`], ['content-type', 'application/json'], ['idempotency-key', '"a"'], ['idempotency-key', '"a"']],
    body: JSON.stringify({ name: 'Idem Twice' }),
  });
  t.is(res.status, 400);
  t.is(await heroCount('Idem Twice'), 0);
});

test.serial('a repeat while the first is still running → 409 with Retry-After; the first then completes once', async (t) => {
  const locker = new pg.Client({ connectionString: rs.database.url });
  const watcher = new pg.Client({ connectionString: rs.database.url });
  await Promise.all([locker.connect(), watcher.connect()]);
  t.teardown(async () => {
    await locker.end().catch(() => {});
    await watcher.end().catch(() => {});
  });
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE heroes IN SHARE ROW EXCLUSIVE MODE');
  const first = createHero('Idem Slow', '"hero-key-4"');
  await waitFor(async () => (await watcher.query(
    "SELECT 1 FROM pg_stat_activity WHERE query LIKE 'INSERT INTO heroes%' AND wait_event_type = 'Lock'",
  )).rowCount === 1, { message: 'the first INSERT never waited on the lock' });
  const repeat = await createHero('Idem Slow', '"hero-key-4"');
  t.is(repeat.status, 409);
  t.is(repeat.headers.get('retry-after'), '1');
  t.like(repeat.body, { error: 'a request with this Idempotency-Key is still being processed; retry after `Retry-After` seconds' });
  await locker.query('COMMIT');
  const answer = await first;
  t.is(answer.status, 200);
  const after = await createHero('Idem Slow', '"hero-key-4"');
  t.deepEqual(after.body, answer.body);
  t.is(await heroCount('Idem Slow'), 1);
});

test('POST /register with a key: the repeat gets the first answer; the record holds an HMAC, never the body or the password', async (t) => {
  const password = 'correct horse battery idem';
  const first = await register('idem-user', password, '"register-key-1"');
  t.is(first.status, 200);
  const again = await register('idem-user', password, '"register-key-1"');
  t.is(again.status, 200);
  t.deepEqual(again.body, first.body);
  t.is(await rs.db.user.count({ where: { username: 'idem-user' } }), 1);
  const otherPassword = await register('idem-user', 'another password idem', '"register-key-1"');
  t.is(otherPassword.status, 422);
  const rows = await rs.db.idempotencyKey.findMany({ where: { key: 'register-key-1' } });
  t.is(rows.length, 1);
  const stored = JSON.stringify(rows);
  t.false(stored.includes(password));
  t.false(stored.includes(Buffer.from(password).toString('base64url')));
  t.deepEqual(JSON.parse(rows[0]!.response), first.body);
  t.true(rows[0]!.expiresAt.getTime() > Date.now() + 23 * 3_600_000, 'kept IDEMPOTENCY_KEY_HOURS (24 by default)');
});
