/**
 * `npm run bench` refuses what it cannot run before it starts anything: `--help` prints the
 * sections and settings, an unknown section or argument is one line and exit 2 (no stack trace).
 */
import { spawnSync } from 'node:child_process';
import test from 'ava';
import { repoRoot } from '@heroes/test-kit';

function bench(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

test('--help lists the sections and settings and starts nothing', (t) => {
  const run = bench(['--help']);
  t.is(run.status, 0);
  t.regex(run.stdout, /^Usage: npm run bench/);
  t.regex(run.stdout, /BENCH_ONLY=name,name +run only these sections: .*heroes/);
  t.notRegex(run.stderr, /\[bench\] section/);
});

test('an unknown BENCH_ONLY section is one line naming the known ones', (t) => {
  const run = bench([], { BENCH_ONLY: 'heroes,nope' });
  t.is(run.status, 2);
  t.is(run.stderr.trim().split('\n').length, 1);
  t.regex(run.stderr, /^bench: BENCH_ONLY: unknown section nope; known: .*heroes/);
});

test('an unknown argument is one line', (t) => {
  const run = bench(['--fast']);
  t.is(run.status, 2);
  t.is(run.stderr.trim(), 'bench: unknown argument --fast; see npm run bench -- --help');
});
