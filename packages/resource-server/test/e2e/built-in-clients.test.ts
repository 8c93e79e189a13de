/**
 * The built-in clients (docs/oauth.md) with real processes: the edge creates them when missing, never rewrites what
 * an operator changed, and when its own credentials are refused readiness says so with one line naming the repair.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { repoRoot } from '@heroes/test-kit';
import { waitFor } from '@heroes/test-kit';
import { bearer, request } from '../_helpers/http.ts';
import { addClient, passwordToken } from '../_helpers/oauth.ts';
import { startProcessStack, startResourceProcess, type ChildServer, type ProcessStack } from '../_helpers/processes.ts';

let stack: ProcessStack;
/** The edge started by restartEdge (stack.stop() knows only the first one). */
let restarted: ChildServer | undefined;
const client = { id: 'builtin-app', secret: 'builtin-app-secret' };

test.before(async () => {
  stack = await startProcessStack();
  await addClient(stack.db, client);
  const res = await request(`${stack.edge.url}/register`, { method: 'POST', json: { username: 'bob', password: 'bobs-long-password' } });
  if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
});
test.after.always(async () => {
  await restarted?.stop();
  await stack?.stop();
});

const auth = (...args: string[]) =>
  promisify(execFile)(process.execPath, [path.join(repoRoot, 'packages/auth-server/bin/auth.js'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: stack.database.url },
  });

async function restartEdge(): Promise<void> {
  const port = new URL(stack.edge.url).port;
  await stack.edge.stop();
  restarted = await startResourceProcess(stack.database.url, Number(port), stack.auth.url, { PUBLIC_BASE_URL: stack.edge.url });
  stack.edge = restarted;
}

/** Readiness once it answers `status` (results are reused for 0.5 s, so a change shows a moment later). */
async function readinessWhen(status: number) {
  return waitFor(async () => {
    const answer = await readiness();
    return answer.status === status && answer;
  }, { message: `readiness never answered ${status}` });
}

async function readiness(): Promise<{ status: number; body: { status: string; checks: Record<string, string> } }> {
  const res = await fetch(`${stack.edge.url}/health/ready`);
  return { status: res.status, body: (await res.json()) as never };
}

test.serial('the edge creates the app client once and never rewrites what an operator changed', async (t) => {
  const base = stack.edge.url; // the edge's PUBLIC_BASE_URL
  const created = await stack.db.oAuthClient.findUniqueOrThrow({ where: { id: 'tour-of-heroes' } });
  t.deepEqual(created.redirectUris, [`${base}/app/callback`, `${base}/docs/oauth2-redirect.html`]);
  t.deepEqual(created.allowedScopes, ['heroes:read', 'heroes:write']);

  await auth('set-scopes', '--id', 'tour-of-heroes', '--allowed-scopes', 'heroes:read', '--force');
  await auth('set-redirect-uris', '--id', 'tour-of-heroes', '--force', '--redirect-uri', `${base}/app/callback`,
    '--redirect-uri', `${base}/docs/oauth2-redirect.html`, '--redirect-uri', 'https://mirror.example/app/callback');
  await restartEdge();

  const kept = await stack.db.oAuthClient.findUniqueOrThrow({ where: { id: 'tour-of-heroes' } });
  t.deepEqual(kept.allowedScopes, ['heroes:read']);
  t.deepEqual(kept.redirectUris, [`${base}/app/callback`, `${base}/docs/oauth2-redirect.html`, 'https://mirror.example/app/callback']);
});

test.serial('a removed resource-server client: readiness 503 naming clientCredentials, one error line; a restart repairs it', async (t) => {
  const before = await readiness();
  t.is(before.body.checks['clientCredentials'], 'up', JSON.stringify(before) + stack.edge.output().slice(-3000));
  const removed = await auth('remove-client', '--id', 'resource-server', '--force');
  t.regex(removed.stdout, /^Client 'resource-server' removed/);

  const token = await passwordToken(stack.edge.url, client, 'bob', 'bobs-long-password');
  const heroes = await request(`${stack.edge.url}/heroes`, { headers: bearer(token.access_token) });
  t.is(heroes.status, 503);

  const ready = await readinessWhen(503);
  t.is(ready.body.checks['clientCredentials'], 'down');
  t.is(ready.body.checks['authServer'], 'up');
  const lines = stack.edge.output().split('\n').filter((line) => line.includes('refuses the resource server'));
  t.is(lines.length, 1, 'one error line');
  const line = JSON.parse(lines[0]!) as { level: number; msg: string; clientId: string };
  t.is(line.level, 50);
  t.is(line.clientId, 'resource-server');
  t.regex(line.msg, /Repair: restart the resource server/);

  await restartEdge();
  const repaired = await readinessWhen(200);
  t.is(repaired.body.checks['clientCredentials'], 'up');
  const again = await request(`${stack.edge.url}/heroes`, { headers: bearer(token.access_token) });
  t.is(again.status, 200);
});
