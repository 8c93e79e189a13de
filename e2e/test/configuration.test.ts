/**
 * Start-up configuration as an operator meets it: docs/configuration.md's table is the
 * one the settings tables produce, and a bad environment or a taken port
 * stops `npm start` (and each server process) with one line per problem,
 * exit 1, before any banner and without a stack trace.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { repoRoot } from '@heroes/test-kit';
import { configurationTable } from '../../scripts/settings-table.ts';
import { freePort } from './_helpers/stack.ts';

const run = promisify(execFile);

async function runNode(entry: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry)], { cwd: repoRoot, env, timeout: 60_000 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const { code, stdout, stderr } = err as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

test('the configuration table of docs/configuration.md is the generated one', (t) => {
  const readme = fs.readFileSync(path.join(repoRoot, 'docs/configuration.md'), 'utf8');
  const table = /<!-- settings:start[^>]*-->\n([\s\S]*?)\n<!-- settings:end -->/.exec(readme)?.[1];
  t.is(table, configurationTable(), 'run `node --import tsx scripts/settings-table.ts` and paste its output into docs/configuration.md');
});

test('npm start names every bad variable, one line each, and exits 1 before starting anything', async (t) => {
  const env = { ...process.env, PORT: 'abc', BCRYPT_COST: '3', PUBLIC_BASE_URL: 'ftp://x', RESOURCE_SERVER_CLIENT_SECRET: '', DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' };
  const { code, output } = await runNode('scripts/start.ts', env);
  t.is(code, 1);
  const lines = output.trim().split('\n');
  t.deepEqual(lines, [
    "[start] PORT must be an integer from 0 to 65535 (got 'abc')",
    "[start] PUBLIC_BASE_URL must be an http(s) URL without credentials, query or fragment (got 'ftp://x')",
    "[start] BCRYPT_COST must be an integer from 4 to 31 (got '3')",
  ]);
  t.notRegex(output, /at .*\.ts:\d+|Error:|running/);
});

test('each server process alone reports its settings the same way', async (t) => {
  for (const [entry, name, variable] of [
    ['packages/auth-server/src/main.ts', 'auth-server', 'AUTH_PORT'],
    ['packages/resource-server/src/main.ts', 'resource-server', 'PORT'],
  ] as const) {
    const { code, output } = await runNode(entry, { ...process.env, DATABASE_URL: 'postgresql://x@127.0.0.1/y', [variable]: 'abc', LOG_LEVEL: 'loud' });
    t.is(code, 1, output);
    t.deepEqual(output.trim().split('\n'), [
      `${name}: ${variable} must be an integer from 0 to 65535 (got 'abc')`,
      `${name}: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got 'loud')`,
    ]);
  }
});

test('a taken port stops npm start before the database, the servers or the banner', async (t) => {
  const blocker = net.createServer();
  const port = await freePort();
  await new Promise<void>((resolve) => blocker.listen(port, '0.0.0.0', resolve));
  t.teardown(() => blocker.close());
  const { code, output } = await runNode('scripts/start.ts', { ...process.env, PORT: String(port), AUTH_PORT: String(await freePort()) });
  t.is(code, 1);
  t.is(output.trim(), `[start] PORT=${port}: cannot listen on 0.0.0.0:${port}: the port is already in use`);
});

test('npm start refuses two listeners on one port (AUTH_PORT = PORT, or the embedded database on either) before starting anything', async (t) => {
  const port = String(await freePort());
  const same = await runNode('scripts/start.ts', { ...process.env, PORT: port, AUTH_PORT: port });
  t.is(same.code, 1);
  t.is(same.output, `[start] PORT and AUTH_PORT are both ${port}: each listener needs a port of its own\n`);

  const all = await runNode('scripts/start.ts', { ...process.env, DATABASE_URL: '', PORT: port, AUTH_PORT: port, EMBEDDED_PG_PORT: port });
  t.is(all.code, 1);
  t.is(all.output, `[start] PORT, AUTH_PORT and EMBEDDED_PG_PORT are all ${port}: each listener needs a port of its own\n`);

  const embedded = await runNode('scripts/start.ts', { ...process.env, DATABASE_URL: '', AUTH_PORT: port, EMBEDDED_PG_PORT: port });
  t.is(embedded.code, 1);
  t.is(embedded.output, `[start] AUTH_PORT and EMBEDDED_PG_PORT are both ${port}: each listener needs a port of its own\n`);
});
