/**
 * `npm test` on a bare machine (scripts/test.ts): the browser, HAProxy, nginx and PgBouncer
 * are found or installed before any suite runs; when they cannot be, the run
 * stops at once with one line naming what to install.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { repoRoot } from '@heroes/test-kit';
import { ensureTestTools, MissingToolError } from '../../scripts/test/ensure-test-tools.ts';
import { chromiumSpec, findTool } from '../../scripts/test/find-tool.ts';

const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-tools-'));
const bare = { PATH: emptyDir, HEROES_NO_INSTALL: '1', CHROMIUM_PATH: '', HAPROXY_PATH: '' };

test('a tool named by its variable must be an executable file', (t) => {
  const error = t.throws(() => ensureTestTools({ env: { ...process.env, CHROMIUM_PATH: path.join(emptyDir, 'nope') } }), { instanceOf: MissingToolError });
  t.regex(error!.message, /^CHROMIUM_PATH=.*nope is not an executable file/);
});

test('the tools found are handed to the suites by path', (t) => {
  const found = ensureTestTools({ env: process.env, install: () => t.fail('nothing to install') as never });
  t.true(fs.existsSync(found['CHROMIUM_PATH']!));
  t.true(fs.existsSync(found['HAPROXY_PATH']!));
  t.true(fs.existsSync(found['NGINX_PATH']!));
  t.true(fs.existsSync(found['PGBOUNCER_PATH']!));
  t.true(fs.existsSync(found['DOCKER_COMPOSE_PATH']!));
});

test('a missing tool that may not be installed stops the run with one line', (t) => {
  t.is(findTool({ ...chromiumSpec, candidates: [] }, bare), undefined);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/test.ts', 'true'], {
    cwd: repoRoot,
    env: { ...process.env, HEROES_NO_INSTALL: '1', CHROMIUM_PATH: '/nonexistent/chromium' },
    encoding: 'utf8',
  });
  t.is(run.status, 1);
  t.is(run.stderr.trim().split('\n').length, 1);
  t.regex(run.stderr, /^npm test: CHROMIUM_PATH=\/nonexistent\/chromium is not an executable file/);
});

test('when the packages cannot be installed, the line says what to install', (t) => {
  const env = { ...process.env, CHROMIUM_PATH: '', HAPROXY_PATH: '', PATH: emptyDir };
  const installs: string[][] = [];
  // Hide the real binaries by making the finder look only at an empty folder.
  const original = { chromium: [...chromiumSpec.candidates] };
  chromiumSpec.candidates.length = 0;
  try {
    const error = t.throws(() => ensureTestTools({ env, install: (packages) => (installs.push(packages), false), log: () => {} }), { instanceOf: MissingToolError });
    if (process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
      t.deepEqual(installs, [['chromium']]);
      t.regex(error!.message, /could not install chromium with apt-get: install it by hand \(apt-get install chromium\)/);
    } else {
      t.regex(error!.message, /the tests need chromium: install Debian's package \(apt-get install chromium\)/);
    }
    const refused = t.throws(() => ensureTestTools({ env: { ...env, HEROES_NO_INSTALL: '1' } }), { instanceOf: MissingToolError });
    t.regex(refused!.message, /^the tests need chromium: install Debian's package \(apt-get install chromium\) or set CHROMIUM_PATH$/);
  } finally {
    chromiumSpec.candidates.push(...original.chromium);
  }
});
