/**
 * Without DATABASE_URL the CLI uses the database of the service running on
 * its data folder (the runtime file `npm start` writes) and never starts or
 * creates an embedded cluster of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { writeRuntimeFile } from '@heroes/platform/local-state';
import { runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);

function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-cli-data-'));
  return dir;
}

/** The CLI's environment without DATABASE_URL, on data folder `dir`. */
function envWithout(dir: string): Record<string, string> {
  return { HEROES_DATA_DIR: dir, DATABASE_URL: '' };
}

test('no DATABASE_URL and no running service: exit 1, one line, no cluster created', async (t) => {
  const dir = freshDataDir();
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const json of [false, true]) {
    const result = await runAuth(['add-client', '--id', 'lost', '--secret', 'lost-secret-1', ...(json ? ['--json'] : [])], { env: envWithout(dir) });
    t.is(result.code, 1);
    t.is(result.stdout, '');
    const line = json ? (JSON.parse(result.stderr) as { error: string; message: string }).message : result.stderr.replace(/\n$/, '');
    t.is(line, `no service is running on the data folder ${dir}: start the service (npm start, with the same HEROES_DATA_DIR) or set DATABASE_URL`);
    t.false(line.includes('\n'));
  }
  t.deepEqual(fs.readdirSync(dir), [], 'nothing created in the data folder');
});

test('the runtime file of a running service names the database the CLI uses', async (t) => {
  const dir = freshDataDir();
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  // This test process stands for the running `npm start`.
  writeRuntimeFile(dir, { pid: process.pid, databaseUrl: ctx.url, source: 'env', publicBaseUrl: 'http://localhost:8888' });
  t.is(fs.statSync(path.join(dir, 'running.json')).mode & 0o777, 0o600);
  const result = await runAuth(['add-client', '--id', 'found', '--secret', 'found-secret-1'], { env: envWithout(dir) });
  t.is(result.code, 0, result.stderr);
  t.truthy(await ctx.db.oAuthClient.findUnique({ where: { id: 'found' } }));
});

test('a runtime file whose service is gone is not used', async (t) => {
  const dir = freshDataDir();
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gone = 2 ** 22 + 12_345; // above the largest pid Linux allows (2^22)
  writeRuntimeFile(dir, { pid: gone, databaseUrl: ctx.url, source: 'env', publicBaseUrl: 'http://localhost:8888' });
  const result = await runAuth(['list-clients'], { env: envWithout(dir) });
  t.is(result.code, 1);
  t.is(result.stderr, `the service that wrote ${path.join(dir, 'running.json')} (pid ${gone}) is no longer running: start the service (npm start, with the same HEROES_DATA_DIR) or set DATABASE_URL\n`);
});
