/**
 * The README's first session and its troubleshooting section, followed word
 * for word as a newcomer would: `npm start` with a non-default data folder
 * and port, the commands of the first session in a second shell (the port
 * and the data folder put in as the README says), then each troubleshooting
 * entry's commands and the answers it promises.
 */
import { exec } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { repoRoot } from '@heroes/test-kit';
import { spawnProcess, waitFor, type SpawnedProcess } from '@heroes/test-kit';
import { freePort, isListening } from './_helpers/stack.ts';

const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-readme-'));
fs.chmodSync(dataDir, 0o755);
const ports = { port: await freePort(), authPort: await freePort(), pgPort: await freePort() };
const base = `http://localhost:${ports.port}`;

/** The shell of someone who set only these (no DATABASE_URL, no HEROES_DATA_DIR). */
const shellEnv: NodeJS.ProcessEnv = { ...process.env, BCRYPT_COST: '4', LOG_LEVEL: 'warn' };
delete shellEnv.DATABASE_URL;
delete shellEnv.HEROES_DATA_DIR;
delete shellEnv.PUBLIC_BASE_URL;
const startEnv: NodeJS.ProcessEnv = {
  ...shellEnv,
  HEROES_DATA_DIR: dataDir,
  PORT: String(ports.port),
  AUTH_PORT: String(ports.authPort),
  EMBEDDED_PG_PORT: String(ports.pgPort),
};

let service: SpawnedProcess | undefined;
test.after.always(async () => {
  await service?.stop('SIGTERM', 60_000);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start`, as typed, with `extra` before it on the command line. */
function npmStart(extra: NodeJS.ProcessEnv = {}): Promise<SpawnedProcess> {
  return spawnProcess('npm', ['start'], { cwd: repoRoot, env: { ...startEnv, ...extra }, inheritEnv: false, ready: /Press Ctrl-C to stop\./, timeoutMs: 150_000 });
}

/** One shell command line, as typed in the second shell. */
function sh(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    exec(line, { cwd: repoRoot, env: shellEnv, timeout: 120_000 }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

/** The command lines of the README's first fenced sh block after `marker` (continuations joined). */
function commandsAfter(marker: string): string[] {
  const at = readme.indexOf(marker);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
  return block.replace(/\\\n\s*/g, '').split('\n').filter((line) => line.trim() !== '');
}

/** What the README says to change: this port, and the data folder given to `npx auth`. */
function asInstructed(line: string): string {
  return line.replaceAll('http://localhost:8888', base).replace(/^npx auth /, `HEROES_DATA_DIR=${dataDir} npx auth `);
}

async function readiness(url: string): Promise<{ status: number; checks: Record<string, string> }> {
  const res = await fetch(`${url}/health/ready`);
  return { status: res.status, checks: ((await res.json()) as { checks: Record<string, string> }).checks };
}

test.serial('the first session, word for word, with a non-default data folder and port', async (t) => {
  service = await npmStart();
  // The banner prints the README's commands with these settings.
  t.true(service.output().includes(`HEROES_DATA_DIR=${dataDir} npx auth add-client --id my-app --secret my-secret`), service.output());
  t.true(service.output().includes(`curl -X POST ${base}/register`));

  const [addClient, register, token, heroes, create, rename, read, remove] = commandsAfter('A first session');
  t.is(addClient, 'npx auth add-client --id my-app --secret my-secret');
  const added = await sh(asInstructed(addClient!));
  t.is(added.code, 0, added.stderr);
  t.regex(added.stdout, new RegExp(`^Client 'my-app' added .* to the embedded database "heroes" at 127\\.0\\.0\\.1:${ports.pgPort} `));

  const registered = await sh(asInstructed(register!));
  t.like(JSON.parse(registered.stdout), { username: 'bob' });
  const issued = JSON.parse((await sh(asInstructed(token!))).stdout) as { access_token: string; token_type: string };
  t.is(issued.token_type.toLowerCase(), 'bearer');
  const listed = await sh(asInstructed(heroes!).replace('<access_token>', issued.access_token));
  t.deepEqual(JSON.parse(listed.stdout), []);
  const withToken = (line: string) => asInstructed(line).replaceAll('<access_token>', issued.access_token);
  t.deepEqual(JSON.parse((await sh(withToken(create!))).stdout), { id: 1, name: 'Mr. Nice' });
  t.deepEqual(JSON.parse((await sh(withToken(rename!))).stdout), { id: 1, name: 'Dr. Nice' });
  t.deepEqual(JSON.parse((await sh(withToken(read!))).stdout), { id: 1, name: 'Dr. Nice' });
  const removed = await sh(`${withToken(remove!)} -o /dev/null -w '%{http_code}'`);
  t.is(removed.stdout, '204');
  t.deepEqual(JSON.parse((await sh(withToken(heroes!))).stdout), []);
});

test.serial('troubleshooting: the CLI without the service\'s data folder, a taken port, redirect URIs, an unknown scope', async (t) => {
  // "`npx auth` says "no service is running on the data folder …""
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-readme-other-'));
  t.teardown(() => fs.rmSync(elsewhere, { recursive: true, force: true }));
  const lost = await sh(`HEROES_DATA_DIR=${elsewhere} npx auth list-clients`);
  t.is(lost.code, 1);
  t.true(readme.includes('**`npx auth` says "no service is running on the data folder …"**'));
  t.is(lost.stderr.trim().split('\n').at(-1), `no service is running on the data folder ${elsewhere}: start the service (npm start, with the same HEROES_DATA_DIR) or set DATABASE_URL`);
  t.deepEqual(fs.readdirSync(elsewhere), [], 'no database made there');

  // "A port is taken: npm start names it"
  const second = await new Promise<{ code: number; output: string }>((resolve) => {
    exec('npm start', { cwd: repoRoot, env: startEnv, timeout: 120_000 }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }));
  });
  t.not(second.code, 0);
  t.regex(second.output, new RegExp(`\\[start\\] PORT=${ports.port}: cannot listen on 0\\.0\\.0\\.0:${ports.port}: the port is already in use`));

  // "see them with `npx auth get-client <id>` and register the exact URI with `npx auth set-redirect-uris`"
  t.true(readme.includes('see them with `npx auth get-client\n  <id>` and register the exact URI with `npx auth set-redirect-uris`'));
  const set = await sh(asInstructed('npx auth set-redirect-uris --id my-app --redirect-uri http://127.0.0.1:8080/callback'));
  t.is(set.code, 0, set.stderr);
  const shown = await sh(asInstructed('npx auth get-client my-app'));
  t.regex(shown.stdout, /http:\/\/127\.0\.0\.1:8080\/callback/);

  // "`auth add-client` or `auth set-scopes` says "Unknown scope": usually a typo (`heroes:raed`); the message lists the scopes the service knows"
  const typo = await sh(asInstructed('npx auth set-scopes --id my-app --allowed-scopes heroes:raed'));
  t.is(typo.code, 1);
  t.regex(typo.stderr, /Unknown scope.*heroes:raed/);
  t.regex(typo.stderr, /heroes:read/);
});

test.serial('troubleshooting: clientCredentials down until a restart; PUBLIC_BASE_URL=http://127.0.0.1:… npm start for clients of 127.0.0.1', async (t) => {
  const removed = await sh(asInstructed('npx auth remove-client --id resource-server --force'));
  t.is(removed.code, 0, removed.stderr);
  // "Every hero call answers 503": a new token (the first one's answer is cached by the edge).
  const [, , token, heroes] = commandsAfter('A first session');
  const fresh = JSON.parse((await sh(asInstructed(token!))).stdout) as { access_token: string };
  const refused = await sh(`${asInstructed(heroes!).replace('<access_token>', fresh.access_token)} -o /dev/null -w '%{http_code}'`);
  t.is(refused.stdout, '503');
  const ready = await waitFor(async () => {
    const answer = await readiness(base);
    return answer.checks['clientCredentials'] === 'down' && answer;
  }, { message: 'clientCredentials never went down' });
  t.is(ready.status, 503);

  // "restart the service, which recreates it", here with the issuer of the other troubleshooting entry.
  // npm itself dies of the signal; the service sees its parent go and stops (docs/operations.md).
  await service!.stop('SIGTERM', 60_000);
  await waitFor(async () => !(await isListening(ports.port) || await isListening(ports.authPort) || await isListening(ports.pgPort)), {
    timeoutMs: 60_000,
    message: 'a port is still held after the stop',
  });
  t.true(readme.includes('`PUBLIC_BASE_URL=http://127.0.0.1:8888 npm start`'));
  const ipBase = `http://127.0.0.1:${ports.port}`;
  service = await npmStart({ PUBLIC_BASE_URL: ipBase });
  const after = await readiness(ipBase);
  t.is(after.status, 200);
  t.is(after.checks['clientCredentials'], 'up');
  const metadata = (await (await fetch(`${ipBase}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
  t.is(metadata.issuer, ipBase);
  // /app opened on the old host name moves to PUBLIC_BASE_URL by itself.
  const moved = await fetch(`${base}/app/`, { redirect: 'manual' });
  t.is(moved.status, 302);
  t.is(moved.headers.get('location'), `${ipBase}/app/`);
});
