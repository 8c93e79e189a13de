/**
 * A documented variable (a row of docs/configuration.md's generated table) is read
 * through its entry in the settings catalogue only: no source file or
 * script reads `process.env.X` or `process.env['X']` (or `env.X` of an
 * environment passed in) for it with a copied default or parser of its own. Tests may still set variables for child
 * processes, so only `packages/ * /src` and `scripts/` are scanned, and
 * setting a variable (`process.env.X = …`) is not reading it.
 *
 * The bench's own knobs (BENCH_*, listed in docs/performance.md's Benchmark section)
 * are no service settings: they are not in the table, and the bench reads
 * them itself.
 */
import test from 'ava';
import { configurationTable } from '../../scripts/settings-table.ts';
import { repositorySources } from './_helpers/source-files.ts';

/** `process.env.X`, `process.env['X']`, or the same on a variable named `env` (an environment handed down); not `… = value`, not `delete …`. */
const READ = /(?<!delete\s+)\b(?:process\.)?env(?:\.([A-Za-z_][A-Za-z0-9_]*)\b|\[\s*['"`]([^'"`]+)['"`]\s*\])(?!\s*=[^=])/g;

function documentedVariables(): Set<string> {
  return new Set([...configurationTable().matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]!));
}

/** file → sorted documented variables it reads from the environment itself. */
function documentedReads(): Record<string, string[]> {
  const documented = documentedVariables();
  const reads: Record<string, string[]> = {};
  for (const { file, text } of repositorySources()) {
    const names = new Set([...text.matchAll(READ)].map((match) => (match[1] ?? match[2])!).filter((name) => documented.has(name)));
    if (names.size > 0) reads[file] = [...names].sort();
  }
  return reads;
}

test('the table documents the variables the scan looks for', (t) => {
  const documented = documentedVariables();
  for (const name of ['PORT', 'AUTH_PORT', 'DATABASE_URL', 'LOG_LEVEL', 'BCRYPT_COST']) t.true(documented.has(name), name);
});

test('no source file or script reads a documented variable outside the settings catalogue', (t) => {
  t.deepEqual(documentedReads(), {}, 'read the value through its entry (SHARED_SETTINGS or the settings.ts that declares it) instead');
});

test('the scan sees reads, not writes', (t) => {
  const reads = (code: string) => [...code.matchAll(READ)].map((match) => (match[1] ?? match[2])!);
  t.deepEqual(reads("const a = process.env.PORT; const b = process.env['AUTH_PORT'] ?? 1; if (process.env.HOST === 'x') {}"), ['PORT', 'AUTH_PORT', 'HOST']);
  t.deepEqual(reads("if (!env['DATABASE_URL']) {} const c = env.PORT || 8888;"), ['DATABASE_URL', 'PORT']);
  t.deepEqual(reads("process.env.DATABASE_URL = url; process.env['PORT'] = '1'; delete env.DATABASE_URL; const e = childEnv.PORT;"), []);
});
