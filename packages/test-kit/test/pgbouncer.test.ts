/**
 * The PgBouncer fixture: a real pooler in the mode asked for, in front of the test PostgreSQL, that stops when
 * asked and also when the test process that started it dies.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import test from 'ava';
import pg from 'pg';
import { startPgBouncer, waitFor } from '../src/index.ts';

const serverUrl = process.env['DATABASE_URL'];
if (!serverUrl) throw new Error('DATABASE_URL is not set: run the tests through `npm test`');

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

for (const poolMode of ['transaction', 'session'] as const) {
  test(`serves queries in ${poolMode} mode and stops on request`, async (t) => {
    const bouncer = await startPgBouncer({ serverUrl, poolMode, poolSize: 2 });
    t.teardown(() => bouncer.stop());
    const client = new pg.Client({ connectionString: bouncer.url(), statement_timeout: 3_000 });
    await client.connect();
    t.is((await client.query('SELECT 1 AS one')).rows[0].one, 1);
    await client.end();
    const config = await bouncer.admin('SHOW CONFIG');
    t.is(config.find((row) => row['key'] === 'pool_mode')?.['value'], poolMode);
    await bouncer.stop();
    t.false(await connects(bouncer.port));
  });
}

test('transaction mode hands one client several server connections (what breaks named statements)', async (t) => {
  const bouncer = await startPgBouncer({ serverUrl, poolMode: 'transaction', poolSize: 2 });
  t.teardown(() => bouncer.stop());
  const [a, b] = [new pg.Client({ connectionString: bouncer.url() }), new pg.Client({ connectionString: bouncer.url() })];
  await Promise.all([a.connect(), b.connect()]);
  t.teardown(() => Promise.all([a.end(), b.end()]));
  // a holds one server connection in a transaction: b's statements go to the other, then a's to either.
  await a.query('BEGIN');
  const held = (await a.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const other = (await b.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  t.not(held, other);
  await a.query('COMMIT');
});

test('stops by itself when the process that started it dies', async (t) => {
  const script = `
    import { startPgBouncer } from './src/index.ts';
    const bouncer = await startPgBouncer({ serverUrl: process.env.DATABASE_URL, poolMode: 'session' });
    console.log('port=' + bouncer.port);
    setInterval(() => {}, 1_000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = Number(await waitFor(() => /port=(\d+)/.exec(output)?.[1], { message: () => `no port printed: ${output}` }));
  t.true(await connects(port));
  child.kill('SIGKILL');
  await waitFor(async () => !(await connects(port)), { message: 'PgBouncer outlived the process that started it' });
  t.pass();
});
