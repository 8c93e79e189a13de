import test from 'ava';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { claimEdgeProofIds, claimProofIds, createDb, proofIdKey, sqlPool } from '@heroes/db';
import { waitFor } from '@heroes/test-kit';
import { hashToken, purgeExpired } from '../../src/index.ts';
import { TokenAdapter } from '../../src/adapter/token-adapter.ts';
import { RecordAdapter } from '../../src/adapter/record-adapter.ts';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';
import { revocationNotices } from '../_helpers/listen.ts';
import { pkcePair } from '../_helpers/pkce.ts';

let s: TestServer;
let userId: number;

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'app', secret: 'app-secret', redirectUri: 'http://127.0.0.1:9/cb', allowedScopes: ['heroes:read'] });
  userId = await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

/** Everything in the database as text: pg_dump when it matches the server, else every row as JSON. */
async function dumpDatabase(url: string): Promise<string> {
  try {
    return execFileSync('pg_dump', ['--data-only', '--no-owner', url], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
      const rows: string[] = [];
      for (const { tablename } of tables.rows) {
        const result = await client.query(`SELECT row_to_json(t)::text AS row FROM "${tablename}" t`);
        rows.push(...result.rows.map((r: { row: string }) => r.row));
      }
      return rows.join('\n');
    } finally {
      await client.end();
    }
  }
}

test('a database dump after issuing tokens and codes contains no token value', async (t) => {
  const issued = await passwordGrant(s.url, basic('app', 'app-secret'), { username: 'bob', password: 'hero-password-1' });
  const { challenge } = pkcePair();
  const authorized = await postForm(`${s.url}/auth/code`, { client_id: 'app', response_type: 'code', state: 's', username: 'bob', password: 'hero-password-1', code_challenge: challenge, code_challenge_method: 'S256' });
  const code = new URL(authorized.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const values = [String(issued.body['access_token']), String(issued.body['refresh_token']), code];
  t.is(values.filter(Boolean).length, 3);

  const dump = await dumpDatabase(s.testDb.url);
  t.true(dump.length > 100);
  t.true(dump.includes(hashToken(values[0] ?? '')), 'the dump holds the hashes');
  for (const value of values) t.false(dump.includes(value), `token value found in the dump: ${value.slice(0, 6)}…`);
});

test('token rows are keyed by sha256 and linked to client, user, grant, scope and expiry', async (t) => {
  const issued = await passwordGrant(s.url, basic('app', 'app-secret'), { username: 'bob', password: 'hero-password-1' });
  const row = await s.db.accessToken.findUnique({ where: { id: hashToken(String(issued.body['access_token'])) } });
  t.truthy(row);
  t.is(row?.clientId, 'app');
  t.is(row?.userId, userId);
  t.is(row?.scope, 'heroes:read');
  t.truthy(row?.grantId);
  t.false('jti' in (row?.payload as object));
  t.true(Math.abs((row?.expiresAt.getTime() ?? 0) - (Date.now() + 86_400_000)) < 10_000);
  const grant = await s.db.oidcRecord.findUnique({ where: { model_id: { model: 'Grant', id: row?.grantId ?? '' } } });
  t.truthy(grant, 'the grant lives in oidc_records');
  const refresh = await s.db.refreshToken.findUnique({ where: { id: hashToken(String(issued.body['refresh_token'])) } });
  t.is(refresh?.grantId, row?.grantId);
});

test('expiry and consumption are stored in UTC whatever the session time zone (pg writes, Prisma reads)', async (t) => {
  // UTC+14 for the adapter's connections: a write in local time would be 14 hours off.
  const url = new URL(s.testDb.url);
  url.searchParams.set('options', '-c TimeZone=Pacific/Kiritimati');
  const db = createDb(url.toString(), { maxConnections: 1 });
  t.teardown(() => db.$disconnect());
  t.is((await db.$queryRaw<{ TimeZone: string }[]>`SHOW TimeZone`)[0]?.TimeZone, 'Pacific/Kiritimati');
  const tokens = new TokenAdapter(db, 'RefreshToken', async () => {});
  await tokens.upsert('tz-value-1', { clientId: 'app', accountId: String(userId), grantId: 'g-tz', kind: 'RefreshToken' }, 600);
  await tokens.consume('tz-value-1');
  const row = await s.db.refreshToken.findUnique({ where: { id: hashToken('tz-value-1') } });
  t.true(Math.abs((row?.expiresAt.getTime() ?? 0) - (Date.now() + 600_000)) < 60_000, `expires_at ${row?.expiresAt.toISOString()}`);
  t.true(Math.abs((row?.consumedAt?.getTime() ?? 0) - Date.now()) < 60_000, `consumed_at ${row?.consumedAt?.toISOString()}`);
  const records = new RecordAdapter(db, 'Session');
  await records.upsert('tz-session', { uid: 'tz-uid', kind: 'Session' }, 600);
  const record = await s.db.oidcRecord.findUnique({ where: { model_id: { model: 'Session', id: 'tz-session' } } });
  t.true(Math.abs((record?.expiresAt?.getTime() ?? 0) - (Date.now() + 600_000)) < 60_000, `expires_at ${record?.expiresAt?.toISOString()}`);
  t.is((await records.findByUid('tz-uid'))?.uid, 'tz-uid');
});

test('find never returns an expired row; consume marks it, once; missing rows never throw', async (t) => {
  const notify = async () => {};
  const adapter = new TokenAdapter(s.db, 'AccessToken', notify);
  const payload = { clientId: 'app', accountId: String(userId), grantId: 'g-1', scope: 'heroes:read', jti: 'value-1', kind: 'AccessToken' };
  await adapter.upsert('value-1', payload, 60);
  const found = await adapter.find('value-1');
  t.is(found?.jti, 'value-1');
  t.is(found?.clientId, 'app');
  await adapter.consume('value-1');
  t.truthy((await adapter.find('value-1'))?.consumed);
  const lost = await t.throwsAsync(adapter.consume('value-1'), undefined, 'single use: a second consume loses');
  t.like(lost, { error: 'invalid_grant', error_detail: 'access token already used' });
  t.is(await adapter.find('value-1'), undefined, 'and the grant is revoked');

  await adapter.upsert('value-2', { ...payload, jti: 'value-2' }, 60);
  await s.db.accessToken.update({ where: { id: hashToken('value-2') }, data: { expiresAt: new Date(Date.now() - 1000) } });
  t.is(await adapter.find('value-2'), undefined);

  await t.notThrowsAsync(adapter.destroy('does-not-exist'));
  t.like(await t.throwsAsync(adapter.consume('does-not-exist')), { error: 'invalid_grant' }, 'nothing to consume: invalid_grant');
  await t.notThrowsAsync(adapter.revokeByGrantId('no-such-grant'));
  const records = new RecordAdapter(s.db, 'Session');
  await t.notThrowsAsync(records.destroy('nope'));
  await t.notThrowsAsync(records.revokeByGrantId('nope'));
  t.is(await records.find('nope'), undefined);
});

test('expired rows are purged', async (t) => {
  const adapter = new TokenAdapter(s.db, 'RefreshToken', async () => {});
  await adapter.upsert('old-refresh', { clientId: 'app', accountId: String(userId), jti: 'old-refresh' }, 60);
  await s.db.refreshToken.update({ where: { id: hashToken('old-refresh') }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const records = new RecordAdapter(s.db, 'Interaction');
  await records.upsert('old-interaction', { jti: 'old-interaction' }, 60);
  await s.db.oidcRecord.update({ where: { model_id: { model: 'Interaction', id: 'old-interaction' } }, data: { expiresAt: new Date(Date.now() - 1000) } });
  // Other tests of this file purge the same database concurrently: what is left is asserted, not the counts.
  await purgeExpired(s.db);
  t.is(await s.db.refreshToken.findUnique({ where: { id: hashToken('old-refresh') } }), null);
  t.is(await s.db.oidcRecord.findUnique({ where: { model_id: { model: 'Interaction', id: 'old-interaction' } } }), null);
});

test('the purge deletes in batches until nothing expired is left, expired Idempotency-Key answers included', async (t) => {
  const past = new Date(Date.now() - 1000);
  const future = new Date(Date.now() + 3_600_000);
  const keys = (prefix: string, count: number, expiresAt: Date) => Array.from({ length: count }, (_, i) => ({
    scope: 'batch-test', key: `${prefix}-${i}`, fingerprint: 'f', status: 200, response: '{}', expiresAt,
  }));
  await s.db.idempotencyKey.createMany({ data: [...keys('old', 7, past), ...keys('kept', 2, future)] });
  // Batches of 3: three statements for the seven expired rows.
  await purgeExpired(s.db, new Date(), { batchRows: 3 });
  const left = await s.db.idempotencyKey.findMany({ where: { scope: 'batch-test' }, select: { key: true }, orderBy: { key: 'asc' } });
  t.deepEqual(left.map((row) => row.key), ['kept-0', 'kept-1']);
});

test('expired DPoP proof ids are purged, of the token endpoint and of the edge; one still in its window is kept', async (t) => {
  const expired = proofIdKey('token', 'purge-test', 'expired');
  const live = proofIdKey('token', 'purge-test', 'live');
  const edgeExpired = proofIdKey('edge', 'purge-test', 'expired');
  const edgeLive = proofIdKey('edge', 'purge-test', 'live');
  const now = new Date();
  await claimProofIds(sqlPool(s.db), [{ id: expired, expiresAtMs: now.getTime() - 1_000 }, { id: live, expiresAtMs: now.getTime() + 60_000 }]);
  const acceptableFromMs = now.getTime() - 60_000;
  await claimEdgeProofIds(sqlPool(s.db), [{ id: edgeExpired, expiresAtMs: now.getTime() - 1_000, acceptableFromMs }, { id: edgeLive, expiresAtMs: now.getTime() + 60_000, acceptableFromMs }]);
  const result = await purgeExpired(s.db, now);
  // Other tests of this file purge the same database concurrently: the counts are reported, the rows asserted.
  t.is(typeof result.dpopProofIds, 'number');
  t.is(typeof result.dpopEdgeProofIds, 'number');
  const left = await s.db.dpopProofId.findMany({ where: { id: { in: [expired, live] } }, select: { id: true } });
  t.deepEqual(left.map((row) => row.id), [live]);
  const edgeLeft = await s.db.dpopEdgeProofId.findMany({ where: { id: { in: [edgeExpired, edgeLive] } }, select: { id: true } });
  t.deepEqual(edgeLeft.map((row) => row.id), [edgeLive]);
});

test('idle login-throttle rows older than a day are purged; a blocking or recent one is kept', async (t) => {
  const dayAgo = new Date(Date.now() - 25 * 60 * 60_000);
  await s.db.loginThrottle.createMany({
    data: [
      { key: 'address:old', failures: 3, windowStart: dayAgo },
      { key: 'account:blocking', failures: 20, windowStart: dayAgo, blockedUntil: new Date(Date.now() + 60_000) },
      { key: 'address:recent', failures: 3 },
    ],
  });
  // Other tests of this file purge the same database concurrently: what is left is asserted, not the counts.
  await purgeExpired(s.db);
  const left = (await s.db.loginThrottle.findMany({ select: { key: true } })).map((row) => row.key).sort();
  t.deepEqual(left.filter((key) => ['address:old', 'account:blocking', 'address:recent'].includes(key)), ['account:blocking', 'address:recent']);
});

test('the purge timer runs on its own interval', async (t) => {
  const quick = await startTestServer({ purgeIntervalMs: 50 });
  try {
    await addClient(quick.db, { id: 'app', secret: 'x' });
    const adapter = new TokenAdapter(quick.db, 'AccessToken', async () => {});
    await adapter.upsert('soon-gone', { clientId: 'app', jti: 'soon-gone' }, 60);
    await quick.db.accessToken.update({ where: { id: hashToken('soon-gone') }, data: { expiresAt: new Date(Date.now() - 1) } });
    // The timer (every 50 ms) removes it: wait for that, however loaded the machine.
    await waitFor(async () => (await quick.db.accessToken.count()) === 0, { intervalMs: 50, message: 'the expired token was never purged' });
    t.pass();
  } finally {
    await quick.close();
  }
});

test('deleting a user deletes their tokens (cascade)', async (t) => {
  const otherId = await addUser(s.db, 'carol', 'hero-password-1');
  const issued = await passwordGrant(s.url, basic('app', 'app-secret'), { username: 'carol', password: 'hero-password-1' });
  await s.db.user.delete({ where: { id: otherId } });
  t.is(await s.db.accessToken.findUnique({ where: { id: hashToken(String(issued.body['access_token'])) } }), null);
});

test('code replay revocation notifies resource servers with the grant id', async (t) => {
  const listener = await revocationNotices(t, s.testDb.url);
  const authorized = await postForm(`${s.url}/auth/code`, { client_id: 'app', response_type: 'code', state: 's', username: 'bob', password: 'hero-password-1' });
  const code = new URL(authorized.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const exchange = () => postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code }, { authorization: basic('app', 'app-secret') });
  const first = await exchange();
  const grantId = (await s.db.accessToken.findUnique({ where: { id: hashToken(String(first.body['access_token'])) } }))?.grantId;
  t.is((await exchange()).body['error'], 'invalid_grant');
  const note = await listener.waitFor((p) => p['grantId'] === grantId);
  t.is(note['grantId'], grantId);
  t.true(JSON.stringify(note).length < 8000);
});

test('audit events older than the retention (AUDIT_RETENTION_DAYS) are purged; newer ones are kept', async (t) => {
  const now = new Date();
  const ago = (ms: number) => new Date(now.getTime() - ms);
  await s.db.auditEvent.createMany({
    data: [
      { type: 'login.failed', username: 'retention-old', at: ago(3 * 86_400_000) },
      { type: 'login.failed', username: 'retention-edge', at: ago(86_400_000 + 60_000) },
      { type: 'login.failed', username: 'retention-recent', at: ago(3_600_000) },
    ],
  });
  await purgeExpired(s.db, now, { auditRetentionMs: 86_400_000 });
  const left = await s.db.auditEvent.findMany({ where: { username: { startsWith: 'retention-' } }, select: { username: true } });
  t.deepEqual(left.map((row) => row.username), ['retention-recent']);
});
