/**
 * Every way of stopping `npm start` is clean (docs/operations.md, "Stopping"):
 * Ctrl-C (SIGINT to the whole process group), SIGTERM to the group (what
 * `docker stop` or systemd's control group does), kill -9 of the start
 * script, SIGTERM to npm. Each time: the edge stops before the authorization
 * server, nothing is restarted during the stop, a request that arrived before
 * the signal is answered, and afterwards no server process is left and no
 * port is held.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import test from 'ava';
import { createEmptyDatabase, type TestDatabase } from '@heroes/test-kit';
import { repoRoot } from '@heroes/test-kit';
import { waitFor } from '@heroes/test-kit';
import { childCommands, freePort, isListening } from './_helpers/stack.ts';

/** Each start migrates a database of its own. */
const databases: TestDatabase[] = [];

test.after.always(async () => {
  for (const database of databases) await database.drop();
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  ports: { port: number; authPort: number };
  /** Pids of the two server processes. */
  servers: number[];
}

/** `node scripts/start.ts` (or `npm start`) in its own process group, as a terminal runs it. */
async function start(how: 'node' | 'npm'): Promise<Started> {
  const ports = { port: await freePort(), authPort: await freePort() };
  const database = await createEmptyDatabase();
  databases.push(database);
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(ports.port),
    AUTH_PORT: String(ports.authPort),
    PUBLIC_BASE_URL: `http://127.0.0.1:${ports.port}`,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'info',
  };
  const [command, args] = how === 'node'
    ? [process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts/start.ts')]]
    : ['npm', ['start']];
  const child = spawn(command, args, { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitFor(() => output.includes('Heroes service is running') || child.exitCode !== null, { timeoutMs: 90_000, message: () => `did not start:\n${output}` });
  if (!output.includes('Heroes service is running')) throw new Error(`did not start:\n${output}`);
  const servers = (await descendants(child.pid!)).filter((c) => /(auth|resource)-server\/src\/main\.ts/.test(c.command)).map((c) => c.pid);
  return { child, output: () => output, exited, ports, servers };
}

async function descendants(pid: number): Promise<{ pid: number; command: string }[]> {
  const direct = await childCommands(pid);
  return [...direct, ...(await Promise.all(direct.map((c) => descendants(c.pid)))).flat()];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A registration that has arrived (the edge answered its
 * `Expect: 100-continue`: the request is in the app) and whose body is sent
 * later: it must be answered after the signal.
 */
async function startRegistration(port: number, username: string): Promise<{ finish(): Promise<string> }> {
  const body = JSON.stringify({ username, password: 'hero-password-1' });
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  socket.write(`POST /register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
  await waitFor(() => answer.includes('100 Continue'), { message: () => `no 100 Continue: ${answer}` });
  answer = '';
  return {
    async finish() {
      socket.write(body);
      await closed;
      return answer;
    },
  };
}

/** Nothing left: no server process, no port held. */
async function assertGone(t: import('ava').ExecutionContext, started: Started): Promise<void> {
  await waitFor(() => started.servers.every((pid) => !alive(pid)), { message: () => `server processes left:\n${started.output()}` });
  t.false(await isListening(started.ports.port), 'PORT still held');
  t.false(await isListening(started.ports.authPort), 'AUTH_PORT still held');
}

/** The edge's last line comes before the authorization server's first line about stopping. */
function assertOrder(t: import('ava').ExecutionContext, output: string): void {
  t.notRegex(output, /restarting in/, output);
  const lines = output.split('\n');
  const edgeStopped = lines.findIndex((line) => line.includes('[start] resource-server stopped'));
  const authStopping = lines.findIndex((line) => /"name":"auth-server".*"msg":"stopping"/.test(line));
  t.true(edgeStopped >= 0 && authStopping > edgeStopped, `edge stopped at line ${edgeStopped}, auth server stopping at line ${authStopping}:\n${output}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test.serial(`${signal} to the whole process group: edge first, then the authorization server; no restart; exit 0`, async (t) => {
    const started = await start('node');
    const registration = await startRegistration(started.ports.port, `group-${signal}`);
    // The request has arrived once the edge holds it open (its headers are in).
    process.kill(-started.child.pid!, signal);
    const answer = await registration.finish();
    t.regex(answer, /^HTTP\/1\.1 200 /, answer);
    t.is(await started.exited, 0, started.output());
    assertOrder(t, started.output());
    await assertGone(t, started);
  });
}

test.serial('kill -9 of the start script: both servers notice at once, drain and exit', async (t) => {
  const started = await start('node');
  const registration = await startRegistration(started.ports.port, 'orphaned');
  process.kill(started.child.pid!, 'SIGKILL');
  const answer = await registration.finish();
  t.regex(answer, /^HTTP\/1\.1 200 /, answer);
  await assertGone(t, started);
});

test.serial('SIGTERM to npm: the servers drain and exit, nothing left behind', async (t) => {
  const started = await start('npm');
  const registration = await startRegistration(started.ports.port, 'npm-stopped');
  process.kill(started.child.pid!, 'SIGTERM');
  const answer = await registration.finish();
  t.regex(answer, /^HTTP\/1\.1 200 /, answer);
  await assertGone(t, started);
});
