/**
 * The revocation feed cannot die in silence (docs/operations.md, "Connection poolers"), against Debian's PgBouncer:
 * behind a transaction pooler start refuses without DATABASE_DIRECT_URL; with it notices sent through the pooler
 * evict the cache; a feed whose notices do not arrive, or that stalls, is never trusted and readiness says so.
 */
import test from 'ava';
import pg from 'pg';
import { pino } from 'pino';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { basic, startPgBouncer, startTcpProxy, waitFor, type PgBouncer } from '@heroes/test-kit';
import { createResourceServer } from '../../src/index.ts';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { quietLogger, startInProcess } from '../_helpers/in-process.ts';

const QUERY_TIMEOUT_MS = 20_000;
let auth: FakeAuthServer;
let database: TestDatabase;
let bouncer: PgBouncer;

test.before(async () => {
  auth = await startFakeAuthServer(basic('resource-server', 'rs-secret'));
  database = await createTestDatabase();
  // What an operator sets behind a pooler that drops the time limits sent at connection start.
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${database.name} SET statement_timeout = ${QUERY_TIMEOUT_MS}`);
  await admin.query(`ALTER DATABASE ${database.name} SET lock_timeout = ${QUERY_TIMEOUT_MS}`);
  await admin.end();
  bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'transaction', poolSize: 10 });
});
test.after.always(async () => {
  await bouncer?.stop();
  await auth?.close();
  await database?.drop();
});

/** A NOTIFY as the authorization server sends it: through its own pooled connection. */
async function notifyThroughPooler(payload: string): Promise<void> {
  const client = new pg.Client({ connectionString: bouncer.url(database.name) });
  await client.connect();
  await client.query('SELECT pg_notify($1, $2)', ['heroes_tokens_revoked', payload]);
  await client.end();
}

test.serial('behind a transaction pooler without DATABASE_DIRECT_URL, start refuses with one line naming the setting', async (t) => {
  const server = createResourceServer({
    databaseUrl: bouncer.url(database.name),
    clientSecret: 'rs-secret',
    authServerUrl: auth.url,
    bcryptCost: 4,
    dbQueryTimeoutMs: QUERY_TIMEOUT_MS,
    logger: quietLogger(),
  });
  const refused = await t.throwsAsync(server.listen(0, '127.0.0.1'));
  t.is(refused!.message.split('\n').length, 1);
  t.regex(refused!.message, /^DATABASE_URL goes through a transaction pooler, .*set DATABASE_DIRECT_URL/);
  t.false(server.introspector.trusted);
});

test.serial('with DATABASE_DIRECT_URL the feed works behind the transaction pooler: notices sent through it evict the cache', async (t) => {
  const rs = await startInProcess(auth.url, { databaseUrl: bouncer.url(database.name), databaseDirectUrl: database.url, dbQueryTimeoutMs: QUERY_TIMEOUT_MS }, database);
  t.teardown(() => rs.close());
  await waitFor(() => rs.server.introspector.trusted, { message: 'the feed never trusted' });
  t.is((await rs.server.health.ready()).checks['revocationFeed'], 'up');
  auth.tokens.set('pooled', activeToken());
  const active = async () => (await rs.server.introspector.lookup('pooled')).active;
  t.true(await active());
  auth.tokens.set('pooled', { active: false });
  t.true(await active(), 'cached');
  await notifyThroughPooler(JSON.stringify({ grantId: 'any-grant' }));
  await waitFor(async () => !(await active()), { message: 'the notice never crossed: the revoked token stays cached' });
  t.pass();
});

test.serial('a feed whose notices never arrive is never trusted: readiness says so and every lookup is introspected', async (t) => {
  // The feed on another database: a NOTIFY sent through DATABASE_URL never reaches it (as through a transaction pooler).
  const elsewhere = await createTestDatabase();
  t.teardown(() => elsewhere.drop());
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const rs = await startInProcess(auth.url, { databaseDirectUrl: elsewhere.url, logger }, database);
  t.teardown(() => rs.close());
  const missedHeartbeats = () => lines.filter((line) => line.includes('heartbeat NOTIFY not received')).length;
  auth.tokens.set('unheard', activeToken());
  const before = auth.callsByToken.get('unheard') ?? 0;
  for (let i = 0; i < 3; i++) t.true((await rs.server.introspector.lookup('unheard')).active);
  t.is((auth.callsByToken.get('unheard') ?? 0) - before, 3, 'no answer was cached');
  // Reconnected and missed again: still never trusted, readiness down.
  await waitFor(() => missedHeartbeats() >= 2, { message: () => lines.join('') });
  t.false(rs.server.introspector.trusted);
  t.is((await rs.server.health.ready()).checks['revocationFeed'], 'down');
});

test.serial('a feed that stalls (no byte moves, the socket stays open) is noticed by its heartbeat, and trusted again once it flows', async (t) => {
  const target = new URL(database.url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  t.teardown(() => proxy.close());
  const rs = await startInProcess(auth.url, { databaseDirectUrl: proxy.rewrite(database.url) }, database);
  t.teardown(() => rs.close());
  await waitFor(() => rs.server.introspector.trusted, { message: 'the feed never trusted' });
  proxy.stall();
  await waitFor(() => !rs.server.introspector.trusted, { intervalMs: 5, message: 'the stalled feed stayed trusted' });
  proxy.resume();
  await waitFor(() => rs.server.introspector.trusted, { message: 'the feed never came back' });
  t.pass();
});
