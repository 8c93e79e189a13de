import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import bcrypt from 'bcrypt';
import { createDb } from '@heroes/db';
import { createTestDatabase } from '@heroes/test-kit';
import { pino } from 'pino';
import { ensureClient } from '../../src/config/ensure-client.ts';
import { APP_CLIENT_ID, appRedirectUri, docsRedirectUri, ensureAppClient } from '../../src/config/ensure-app-client.ts';
import { captureJsonLines } from '@heroes/test-kit';
import { createPool } from '../../src/data/create-pool.ts';
import { readOrCreateClientSecret } from '../../src/config/client-secret.ts';
import { loadConfig } from '../../src/config/load-config.ts';

test('the generated client secret is created once, mode 0600, shared by concurrent starters', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-secret-'));
  const secrets = await Promise.all(Array.from({ length: 8 }, () => readOrCreateClientSecret(path.join(dir, 'data'))));
  t.is(new Set(secrets).size, 1);
  t.true(secrets[0]!.length >= 40);
  const file = path.join(dir, 'data', 'resource-server-secret');
  t.is(fs.statSync(file).mode & 0o777, 0o600);
  t.is(await readOrCreateClientSecret(path.join(dir, 'data')), secrets[0]!);
  t.deepEqual(fs.readdirSync(path.join(dir, 'data')), ['resource-server-secret'], 'no temporary files left');
});

test('loadConfig reads the environment and rejects bad numbers', async (t) => {
  const config = await loadConfig({
    DATABASE_URL: 'postgresql://x/y',
    RESOURCE_SERVER_CLIENT_SECRET: 's',
    PORT: '9999',
    AUTH_SERVER_URL: 'http://auth:1/',
    INTROSPECTION_CACHE_TTL_MS: '1000',
    TRUST_PROXY: 'true',
  });
  t.is(config.port, 9999);
  t.is(config.authServerUrl, 'http://auth:1');
  t.is(config.introspectionCacheTtlMs, 1000);
  t.is(config.clientId, 'resource-server');
  t.is(config.bcryptCost, 10);
  t.deepEqual(config.trustProxy, { kind: 'hops', hops: 1 }, 'true: one hop, as 1');
  t.is(config.requestTimeoutMs, 30_000, 'default: 30 s, not Node\'s 300 s');
  t.is(config.headersTimeoutMs, 15_000);
  const timeouts = await loadConfig({ DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's', REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '2000' });
  t.is(timeouts.requestTimeoutMs, 5000);
  t.is(timeouts.headersTimeoutMs, 2000);
  await t.throwsAsync(loadConfig({ DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's', REQUEST_TIMEOUT_MS: '-1' }), { message: /REQUEST_TIMEOUT_MS/ });
  await t.throwsAsync(loadConfig({ RESOURCE_SERVER_CLIENT_SECRET: 's' }), { message: /DATABASE_URL/ });
  const cidrs = await loadConfig({ DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's', TRUST_PROXY: '10.0.0.0/8' });
  t.deepEqual(cidrs.trustProxy, { kind: 'networks', networks: [{ address: '10.0.0.0', prefix: 8, family: 'ipv4' }] });
  t.deepEqual((await loadConfig({ DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's' })).trustProxy, { kind: 'none' });
  await t.throwsAsync(loadConfig({ DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's', TRUST_PROXY: 'sometimes' }), { message: /TRUST_PROXY/ });
  await t.throwsAsync(loadConfig({ DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's', BCRYPT_COST: '3' }), { message: /BCRYPT_COST/ });
  await t.throwsAsync(loadConfig({ DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's', PORT: 'abc' }), { message: /PORT/ });
});

test('the authorization server is found on AUTH_PORT of this machine unless AUTH_SERVER_URL says otherwise', async (t) => {
  const base = { DATABASE_URL: 'postgresql://x/y', RESOURCE_SERVER_CLIENT_SECRET: 's' };
  t.is((await loadConfig(base)).authServerUrl, 'http://127.0.0.1:8889');
  t.is((await loadConfig({ ...base, AUTH_PORT: '18889' })).authServerUrl, 'http://127.0.0.1:18889');
  t.is((await loadConfig({ ...base, AUTH_PORT: '18889', AUTH_SERVER_URL: 'http://auth:1' })).authServerUrl, 'http://auth:1');
  await t.throwsAsync(loadConfig({ ...base, AUTH_PORT: 'x' }), { message: /AUTH_PORT/ });
  // AUTH_PORT 0 (any free port) names no address the edge could reach.
  await t.throwsAsync(loadConfig({ ...base, AUTH_PORT: '0' }), { message: 'AUTH_SERVER_URL must be set when AUTH_PORT is 0 (a free port the edge cannot know)' });
  t.is((await loadConfig({ ...base, AUTH_PORT: '0', AUTH_SERVER_URL: 'http://auth:1' })).authServerUrl, 'http://auth:1');
});

test('ensureClient creates the row once and rewrites the hash only when the secret changed', async (t) => {
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const pool = createPool({ databaseUrl: database.url, max: 2, connectTimeoutMs: 5_000, queryTimeoutMs: 30_000, logger: pino({ level: 'silent' }) });
  try {
    const options = { clientId: 'rs', clientSecret: 'one', bcryptCost: 4 };
    const results = await Promise.all([ensureClient(pool, options), ensureClient(pool, options)]);
    t.true(results.includes('created'));
    const first = await db.oAuthClient.findUniqueOrThrow({ where: { id: 'rs' } });
    t.true(await bcrypt.compare('one', first.hashedSecret!));
    t.deepEqual(first.allowedScopes, []);
    t.deepEqual(first.redirectUris, []);
    t.is(await ensureClient(pool, options), 'unchanged');
    t.is((await db.oAuthClient.findUniqueOrThrow({ where: { id: 'rs' } })).hashedSecret, first.hashedSecret);
    t.is(await ensureClient(pool, { ...options, clientSecret: 'two' }), 'updated');
    t.true(await bcrypt.compare('two', (await db.oAuthClient.findUniqueOrThrow({ where: { id: 'rs' } })).hashedSecret!));
    t.true(Math.abs(first.createdAt.getTime() - Date.now()) < 60_000, 'created_at is UTC, as Prisma writes it');
    const audit = await db.auditEvent.findMany({ orderBy: { id: 'asc' } });
    t.deepEqual(audit.map((event) => [event.type, event.clientId]), [['client.added', 'rs'], ['client.secret_rotated', 'rs']], 'the audit trail: one creation (the lost race wrote nothing), one new secret');
  } finally {
    await pool.end();
    await db.$disconnect();
    await database.drop();
  }
});

test('ensureAppClient records client.added when it creates the built-in app client, client.changed when it adds a redirect URI, and logs each as one JSON line', async (t) => {
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const lines = captureJsonLines();
  const logger = pino(lines.stream);
  const pool = createPool({ databaseUrl: database.url, max: 4, connectTimeoutMs: 5_000, queryTimeoutMs: 30_000, logger: pino({ level: 'silent' }) });
  try {
    const scopes = ['heroes:read', 'heroes:write'];
    const first = 'http://127.0.0.1:8888';
    const results = await Promise.all([ensureAppClient(pool, { publicBaseUrl: first, scopes, logger }), ensureAppClient(pool, { publicBaseUrl: first, scopes, logger })]);
    t.deepEqual(results.map((r) => r.result).sort(), ['created', 'unchanged'], 'two replicas starting together: one creates');
    t.is((await ensureAppClient(pool, { publicBaseUrl: first, scopes, logger })).result, 'unchanged');
    const moved = await ensureAppClient(pool, { publicBaseUrl: 'https://heroes.example', scopes, logger });
    t.deepEqual(moved, { result: 'added-redirect-uris', added: [appRedirectUri('https://heroes.example'), docsRedirectUri('https://heroes.example')] });
    const audit = await db.auditEvent.findMany({ orderBy: { id: 'asc' } });
    t.deepEqual(audit.map((event) => [event.type, event.clientId]), [['client.added', APP_CLIENT_ID], ['client.changed', APP_CLIENT_ID]], 'one creation, one change; nothing for unchanged starts');
    t.regex(audit[1]!.reason ?? '', /heroes\.example\/app\/callback/);
    const logged = lines.lines.filter((line) => line['msg'] === 'audit event').map((line) => line['audit'] as Record<string, unknown>);
    t.deepEqual(logged.map((event) => [event['type'], event['clientId']]), [['client.added', APP_CLIENT_ID], ['client.changed', APP_CLIENT_ID]]);
    t.like(logged[0], { reason: audit[0]!.reason });
  } finally {
    await pool.end();
    await db.$disconnect();
    await database.drop();
  }
});

test('ensureClient logs the audit event it writes as one JSON line', async (t) => {
  const database = await createTestDatabase();
  const lines = captureJsonLines();
  const pool = createPool({ databaseUrl: database.url, max: 2, connectTimeoutMs: 5_000, queryTimeoutMs: 30_000, logger: pino({ level: 'silent' }) });
  try {
    const options = { clientId: 'rs', clientSecret: 'one', bcryptCost: 4, logger: pino(lines.stream) };
    await ensureClient(pool, options);
    await ensureClient(pool, options);
    await ensureClient(pool, { ...options, clientSecret: 'two' });
    const logged = lines.lines.filter((line) => line['msg'] === 'audit event').map((line) => (line['audit'] as Record<string, unknown>)['type']);
    t.deepEqual(logged, ['client.added', 'client.secret_rotated']);
  } finally {
    await pool.end();
    await database.drop();
  }
});
