/**
 * A documented variable (a row of the README's generated table) is read
 * through its settings table only: no source file or script reads
 * `process.env.X` or `process.env['X']` for it with a copied default or
 * parser of its own. Tests may still set variables for child processes, so
 * only `packages/ * /src` and `scripts/` are scanned.
 *
 * STILL_READ lists the reads not yet moved onto the settings tables; the
 * list may only shrink: a read missing from it fails, and so does an entry
 * whose read is gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { repoRoot } from '@heroes/db';
import { configurationTable } from '../../scripts/settings-table.ts';

/** file (from the repository root) → documented variables it still reads itself. */
const STILL_READ: Record<string, string[]> = {
  'packages/db/src/migrate-command.ts': ['DATABASE_URL'],
  'packages/db/src/testing.ts': ['DATABASE_URL'], // the test databases' server, as docs/testing.md says
  'scripts/bench/raw-anchor-server.ts': ['DATABASE_URL', 'DB_POOL_SIZE', 'PORT'],
  'scripts/bench/lib/stack.ts': ['DATABASE_URL', 'REGISTER_ADDRESS_LIMIT', 'RESOURCE_SERVER_CLIENT_ID'],
};

const READ = /process\.env(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*['"`]([^'"`]+)['"`]\s*\])/g;

function documentedVariables(): Set<string> {
  return new Set([...configurationTable().matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]!));
}

function sourceFiles(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js|mjs|cjs)$/.test(file) && !file.split(path.sep).includes('node_modules'))
    .map((file) => path.join(folder, file));
}

function scannedFiles(): string[] {
  const packages = fs.readdirSync(path.join(repoRoot, 'packages')).flatMap((name) => sourceFiles(path.join(repoRoot, 'packages', name, 'src')));
  return [...packages, ...sourceFiles(path.join(repoRoot, 'scripts'))];
}

/** file → sorted documented variables it reads from process.env itself. */
function documentedReads(): Record<string, string[]> {
  const documented = documentedVariables();
  const reads: Record<string, string[]> = {};
  for (const file of scannedFiles()) {
    const text = fs.readFileSync(file, 'utf8');
    const names = new Set([...text.matchAll(READ)].map((match) => (match[1] ?? match[2])!).filter((name) => documented.has(name)));
    if (names.size > 0) reads[path.relative(repoRoot, file).split(path.sep).join('/')] = [...names].sort();
  }
  return reads;
}

test('the table documents the variables the scan looks for', (t) => {
  const documented = documentedVariables();
  for (const name of ['PORT', 'AUTH_PORT', 'DATABASE_URL', 'LOG_LEVEL', 'BCRYPT_COST']) t.true(documented.has(name), name);
});

test('no source file or script reads a documented variable outside its settings table (beyond the listed ones still to move)', (t) => {
  const expected = Object.fromEntries(Object.entries(STILL_READ).map(([file, names]) => [file, [...names].sort()]));
  t.deepEqual(documentedReads(), expected, 'read the value from the loaded settings (config/settings.ts) instead; when a listed read is gone, drop it from STILL_READ');
});
