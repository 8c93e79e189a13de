/**
 * What each process checks at start behind Debian's PgBouncer (docs/operations.md, "Connection poolers"), as an
 * operator runs them:
 * - behind a transaction pooler without DATABASE_DIRECT_URL the edge refuses to start, one line naming the
 *   setting (its revocation feed's LISTEN would receive nothing there);
 * - `npm run migrate` through a transaction pooler refuses with one line naming the cause (Prisma's advisory
 *   lock would stay held by a pooled server connection, and the next migration fail); with DATABASE_DIRECT_URL
 *   it migrates, and the next run finds the lock free;
 * - a pooler that drops the time limits (ignore_startup_parameters) with no role or database setting behind it:
 *   both servers say so in one line and stay not-ready, so "a 503 wrote nothing" never silently stops holding.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { createEmptyDatabase, createTestDatabase, repoRoot } from '@heroes/test-kit';
import { freePort, spawnProcess, startPgBouncer, waitFor, type SpawnedProcess } from '@heroes/test-kit';

const run = promisify(execFile);
const serverUrl = process.env['DATABASE_URL'];
if (!serverUrl) throw new Error('DATABASE_URL is not set: run the tests through `npm test`');

/** Runs a script of the repository to its end: exit code and output. */
async function runScript(entry: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry)], { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

test('behind a transaction pooler without DATABASE_DIRECT_URL the edge refuses to start, one line naming the setting', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  const bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'transaction', poolSize: 10 });
  t.teardown(() => bouncer.stop());
  const edge = await runScript('packages/resource-server/src/main.ts', {
    DATABASE_URL: bouncer.url(database.name),
    DATABASE_DIRECT_URL: '',
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    AUTH_SERVER_URL: 'http://127.0.0.1:9',
    RESOURCE_SERVER_CLIENT_SECRET: 'start-checks-secret',
    LOG_LEVEL: 'warn',
  });
  t.is(edge.code, 1, edge.stdout + edge.stderr);
  t.deepEqual(lines(edge.stderr).length, 1, edge.stderr);
  t.regex(edge.stderr, /^resource-server: DATABASE_URL goes through a transaction pooler, .*set DATABASE_DIRECT_URL/);
});

test('npm run migrate through a transaction pooler refuses with one line naming the cause; with DATABASE_DIRECT_URL it migrates, and leaves the lock free', async (t) => {
  const database = await createEmptyDatabase('heroes_pm_');
  t.teardown(() => database.drop());
  const bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'transaction', poolSize: 10 });
  t.teardown(() => bouncer.stop());
  const pooled = { DATABASE_URL: bouncer.url(database.name), DATABASE_DIRECT_URL: '' };
  const refused = await runScript('scripts/migrate.ts', pooled);
  t.is(refused.code, 1, refused.stdout + refused.stderr);
  t.is(lines(refused.stderr).length, 1, refused.stderr);
  t.regex(refused.stderr, /^migrations refused: database "heroes_pm_\w+" at 127\.0\.0\.1:\d+ is a transaction pooler .*DATABASE_DIRECT_URL/);
  // What the operator does: the pooler for the servers, the database itself for migrations.
  const migrated = await runScript('scripts/migrate.ts', { ...pooled, DATABASE_DIRECT_URL: database.url });
  t.is(migrated.code, 0, migrated.stdout + migrated.stderr);
  t.regex(migrated.stderr, /^migrations applied to database "heroes_pm_\w+" at 127\.0\.0\.1:5432/m);
  const again = await runScript('scripts/migrate.ts', { DATABASE_URL: database.url });
  t.is(again.code, 0, again.stdout + again.stderr);
});

test('a pooler that drops the time limits, nothing set on the role or database: both servers say so in one line and stay not-ready', async (t) => {
  const database = await createTestDatabase();
  t.teardown(() => database.drop());
  // Session pooling: everything else works there; only the limits sent at connection start are dropped.
  const bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: 'session', poolSize: 40 });
  t.teardown(() => bouncer.stop());
  const [authPort, edgePort] = [await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-start-checks-'));
  t.teardown(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const common = {
    DATABASE_URL: bouncer.url(database.name),
    DB_QUERY_TIMEOUT_MS: '4321',
    BCRYPT_COST: '4',
    LOG_LEVEL: 'info',
    PUBLIC_BASE_URL: `http://127.0.0.1:${edgePort}`,
    RESOURCE_SERVER_CLIENT_SECRET: 'start-checks-secret',
    HEROES_DATA_DIR: dataDir,
  };
  const start = (entry: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<SpawnedProcess> =>
    spawnProcess(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry)], { cwd: repoRoot, env: { ...common, ...env }, ready, timeoutMs: 150_000 });
  const auth = await start('packages/auth-server/src/main.ts', { AUTH_PORT: String(authPort), AUTH_HOST: '127.0.0.1' }, /authorization server listening/);
  t.teardown(() => auth.stop());
  const edge = await start('packages/resource-server/src/main.ts', { PORT: String(edgePort), HOST: '127.0.0.1', AUTH_SERVER_URL: `http://127.0.0.1:${authPort}` }, /resource server listening/);
  t.teardown(() => edge.stop());
  for (const [server, url] of [[auth, `http://127.0.0.1:${authPort}`], [edge, `http://127.0.0.1:${edgePort}`]] as const) {
    const said = await waitFor(() => lines(server.output()).filter((line) => line.includes('not DB_QUERY_TIMEOUT_MS')), { message: server.output });
    t.is(said.length, 1, 'said once');
    t.regex(said[0]!, /statement_timeout = 0 ms and lock_timeout = 0 ms, not DB_QUERY_TIMEOUT_MS \(4321 ms\)/);
    const ready = await fetch(`${url}/health/ready`);
    t.is(ready.status, 503);
    t.like(await ready.json(), { status: 'unavailable', checks: { database: 'up', queryTimeouts: 'down' } });
  }
});
