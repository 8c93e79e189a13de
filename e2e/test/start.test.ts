/**
 * `npm start` on a machine without DATABASE_URL: the embedded PostgreSQL
 * server, migrations, two server processes, the `auth` CLI against the same
 * database, Ctrl-C, and a second start that keeps the data.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import pg from 'pg';
import { repoRoot } from '@heroes/test-kit';
import { basic, waitFor } from '@heroes/test-kit';
import { childCommands, freePort, isListening, listeningAddresses, startStack } from './_helpers/stack.ts';

const run = promisify(execFile);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-start-'));
fs.chmodSync(dataDir, 0o755);

const ports = { port: await freePort(), authPort: await freePort(), pgPort: await freePort() };
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: '',
  HEROES_DATA_DIR: dataDir,
  EMBEDDED_PG_PORT: String(ports.pgPort),
  PORT: String(ports.port),
  AUTH_PORT: String(ports.authPort),
  PUBLIC_BASE_URL: `http://127.0.0.1:${ports.port}`,
  BCRYPT_COST: '4',
  LOG_LEVEL: 'warn',
};
delete env.DATABASE_URL;
const base = `http://127.0.0.1:${ports.port}`;

test.after.always(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test.serial('npm start runs the embedded database and two server processes; Ctrl-C stops them', async (t) => {
  const stack = await startStack(env);
  try {
    t.regex(stack.output(), new RegExp(`running at ${base.replace(/[.]/g, '\\.')}`));
    // The banner names the data folder in use (HEROES_DATA_DIR), not the default .data/.
    t.regex(stack.output(), new RegExp(`using the embedded PostgreSQL server at \\S+:${ports.pgPort} \\(data in ${escapeRegExp(path.join(dataDir, 'postgres'))}\\)`));
    // The hint names the settings that reach this same embedded server.
    t.true(stack.output().includes(`HEROES_DATA_DIR=${dataDir} npx auth add-client --id`), stack.output());

    const heroes = await fetch(`${base}/heroes`);
    t.is(heroes.status, 401);

    const servers = (await childCommands(stack.child.pid!)).filter((c) => /(auth|resource)-server\/src\/main\.ts/.test(c.command));
    t.is(servers.length, 2, 'the authorization server and the resource server are separate processes');
    t.not(servers[0]!.pid, servers[1]!.pid);
    // As the image runs them: AsyncLocalStorage without promise hooks (docs/performance.md, "Rules that keep the hot paths fast").
    for (const server of servers) t.true(server.command.includes('--experimental-async-context-frame'), server.command);

    // Least privilege at rest: both servers connect as a role that is no
    // superuser; the superuser's password is generated, kept 0600, and the
    // old fixed one no longer opens its account.
    // (The servers get DATABASE_URL over their IPC channel once the database is ready, so
    // it is not in /proc/<pid>/environ: the superuser lists who is connected instead.)
    const superuserUrl = `postgresql://postgres:${encodeURIComponent(fs.readFileSync(path.join(dataDir, 'postgres-superuser-password'), 'utf8').trim())}@127.0.0.1:${ports.pgPort}/postgres`;
    t.deepEqual(await queryRows(superuserUrl, `SELECT DISTINCT a.usename AS name, r.rolsuper FROM pg_stat_activity a JOIN pg_roles r ON r.rolname = a.usename
      WHERE a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()`), [{ name: 'heroes', rolsuper: false }]);
    for (const file of ['postgres-superuser-password', 'postgres-heroes-password']) {
      t.is(fs.statSync(path.join(dataDir, file)).mode & 0o777, 0o600, file);
    }
    const oldSuperuser = `postgresql://postgres:postgres@127.0.0.1:${ports.pgPort}/postgres`;
    await t.throwsAsync(queryRows(oldSuperuser, 'SELECT 1'), { message: /password authentication failed/ });
    t.true(await isListening(ports.authPort), 'the authorization server listens on AUTH_PORT');
    // One public door: the authorization server is on loopback only; the edge listens on every address.
    t.deepEqual(await listeningAddresses(ports.authPort), ['127.0.0.1']);
    t.notDeepEqual(await listeningAddresses(ports.port), ['127.0.0.1']);

    // The CLI writes to the database npm start uses, while it runs.
    const authBin = path.join(repoRoot, 'packages/auth-server/bin/auth.js');
    const added = await run(process.execPath, [authBin, 'add-client', '--id', 'e2e-app', '--secret', 'e2e-secret'], { env, cwd: repoRoot });
    // The success line names the database it wrote to.
    t.is(added.stdout, `Client 'e2e-app' added (confidential, no redirect URI, default scopes: heroes:read heroes:write) to the embedded database "heroes" at 127.0.0.1:${ports.pgPort} (data in ${path.join(dataDir, 'postgres')}).\n`);

    // The runtime file naming the database is the service's secret: 0600.
    t.is(fs.statSync(path.join(dataDir, 'running.json')).mode & 0o777, 0o600);
    // Without EMBEDDED_PG_PORT the CLI still finds the server of its data folder (its runtime file).
    const { EMBEDDED_PG_PORT: _port, ...withoutPort } = env;
    const found = await run(process.execPath, [authBin, 'add-client', '--id', 'e2e-found'], { env: withoutPort, cwd: repoRoot });
    t.regex(found.stdout, new RegExp(`at 127\\.0\\.0\\.1:${ports.pgPort} `));

    // Another data folder, where no service runs: refused in one line, no cluster created there.
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-other-'));
    t.teardown(() => fs.rmSync(otherDir, { recursive: true, force: true }));
    const refused = await run(process.execPath, [authBin, 'add-client', '--id', 'e2e-elsewhere'], { env: { ...env, HEROES_DATA_DIR: otherDir }, cwd: repoRoot })
      .then(() => undefined, (err: { code: number; stdout: string; stderr: string }) => err);
    t.is(refused?.code, 1);
    t.is(refused?.stdout, '');
    t.is(refused?.stderr, `no service is running on the data folder ${otherDir}: start the service (npm start, with the same HEROES_DATA_DIR) or set DATABASE_URL\n`);
    t.deepEqual(fs.readdirSync(otherDir), []);

    const registered = await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bob', password: 'correct horse' }),
    });
    t.is(registered.status, 200);

    const token = await fetch(`${base}/auth/token`, {
      method: 'POST',
      headers: {
        authorization: basic('e2e-app', 'e2e-secret'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=password&username=bob&password=correct%20horse',
    });
    t.is(token.status, 200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const authorized = await fetch(`${base}/heroes`, { headers: { authorization: `Bearer ${accessToken}` } });
    t.is(authorized.status, 200);
    t.deepEqual(await authorized.json(), []);
  } finally {
    const code = await stack.stop('SIGINT');
    t.is(code, 0, stack.output());
  }
  t.false(await isListening(ports.port));
  t.false(await isListening(ports.authPort));
  t.false(await isListening(ports.pgPort), 'the embedded PostgreSQL server stopped too');
  t.false(fs.existsSync(path.join(dataDir, 'running.json')), 'the runtime file is gone with the service');
});

async function queryRows(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

test.serial('a second npm start reuses the kept data', async (t) => {
  const stack = await startStack(env);
  try {
    const again = await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bob', password: 'another password' }),
    });
    t.is(again.status, 409, 'bob was kept from the first run');
  } finally {
    t.is(await stack.stop('SIGTERM'), 0);
  }
});

test.serial('stdout is JSON lines only (the servers\' logs); the banner and the start lines go to stderr', async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/start.ts')], { cwd: repoRoot, env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  const banner = new Promise<void>((resolve) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Press Ctrl-C to stop.')) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await Promise.race([banner, exited]);
  t.regex(stderr, /Heroes service is running at /, stderr);
  t.is((await fetch(`${base}/heroes`)).status, 401);
  child.kill('SIGINT');
  t.is(await exited, 0);
  const lines = stdout.split('\n').filter((line) => line !== '');
  t.true(lines.length > 0, 'the servers logged on stdout');
  for (const line of lines) t.notThrows(() => JSON.parse(line), line);
  t.true(lines.some((line) => (JSON.parse(line) as { url?: string }).url === '/heroes' || line.includes('"/heroes"')), 'the request line is there');
});

test.serial('killing the npm process that ran `npm start` stops the whole service', async (t) => {
  // As `npm start` does: npm → sh -c → node scripts/start.ts.
  const npm = spawn('npm', ['start'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  npm.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  await waitFor(() => output.includes('Heroes service is running'), { timeoutMs: 90_000, intervalMs: 100, message: () => output });
  npm.kill('SIGTERM');
  await waitFor(
    async () => !(await isListening(ports.port)) && !(await isListening(ports.authPort)) && !(await isListening(ports.pgPort)),
    { intervalMs: 200, message: () => `servers still listening after npm was killed:\n${output}` },
  );
  t.pass('every port was released');
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test.serial('after kill -9 of the start script, the next start takes over the database it left running, and its Ctrl-C stops it', async (t) => {
  const startScript = () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/start.ts')], { cwd: repoRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { child, exited, stderr: () => stderr };
  };
  const first = startScript();
  await waitFor(() => first.stderr().includes('Press Ctrl-C to stop.') || first.child.exitCode !== null, { timeoutMs: 90_000, message: first.stderr });
  first.child.kill('SIGKILL');
  await first.exited;
  // The servers notice and exit; the embedded database is left behind, serving nobody.
  await waitFor(async () => !(await isListening(ports.port)) && !(await isListening(ports.authPort)), { message: 'servers still up' });
  t.true(await isListening(ports.pgPort), 'the database outlived the killed start script');

  const second = startScript();
  await waitFor(() => second.stderr().includes('Press Ctrl-C to stop.') || second.child.exitCode !== null, { timeoutMs: 90_000, message: second.stderr });
  t.regex(second.stderr(), /stopping the embedded PostgreSQL server \(pid \d+\) that an earlier npm start left running/);
  t.is((await fetch(`${base}/heroes`)).status, 401);
  second.child.kill('SIGINT');
  t.is(await second.exited, 0, second.stderr());
  await waitFor(async () => !(await isListening(ports.pgPort)), { message: 'the database is still running after a clean stop' });
  t.pass();
});
