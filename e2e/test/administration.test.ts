/**
 * Administration end to end (docs/operations.md, Administration): one
 * authorization server and two edges (resource servers) on one database,
 * the real `auth` binary. A user's whole story is in the audit trail with
 * the answers' X-Request-Id, registration included; disabling a user or
 * revoking their grants is refused by both edges, though each had the token
 * cached (the revocation feed: how fast, `npm run bench`, section `revocation`).
 */
import test from 'ava';
import { createAuthServer, generateKeys, type AuthServer } from '@heroes/auth-server';
import { createResourceServer } from '@heroes/resource-server';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { createLogger } from '@heroes/platform';
import { basic, freePort, waitFor } from '@heroes/test-kit';
import { authCli } from './_helpers/auth-cli.ts';

const RS_SECRET = 'administration-rs-secret-0123456789';
const APP_SECRET = 'administration-app-secret';
const PASSWORD = 'a long enough passphrase';
let database: TestDatabase;
let auth: AuthServer;
const edges: string[] = [];
const closers: Array<() => Promise<void>> = [];
let env: NodeJS.ProcessEnv;

function quiet(name: string) {
  const logger = createLogger(name);
  logger.level = process.env['LOG_LEVEL'] ?? 'silent';
  return logger;
}

test.before(async () => {
  database = await createTestDatabase();
  env = { ...process.env, DATABASE_URL: database.url, BCRYPT_COST: '4' };
  const ports = [await freePort(), await freePort()];
  const publicBaseUrl = `http://127.0.0.1:${ports[0]}`;
  auth = await createAuthServer({ databaseUrl: database.url, keys: generateKeys(), bcryptCost: 4, publicBaseUrl, logger: quiet('auth-server'), loginRefusalDelayMs: 0, loginAccountFailures: 2 });
  const authListening = await auth.listen(0);
  closers.push(() => auth.close());
  for (const port of ports) {
    const edge = createResourceServer({ databaseUrl: database.url, clientSecret: RS_SECRET, authServerUrl: authListening.url, publicBaseUrl, bcryptCost: 4, logger: quiet('resource-server') });
    const running = await edge.listen(port, '127.0.0.1');
    closers.unshift(() => running.close());
    await edge.clientReady;
    edges.push(running.url);
  }
  await authCli(env, ['add-client', '--id', 'story-app', '--secret', APP_SECRET]);
});

test.after.always(async () => {
  for (const close of closers) await close();
  await database?.drop();
});

const post = (url: string, body: Record<string, string>, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body) });

async function register(username: string, requestId?: string): Promise<Response> {
  const res = await fetch(`${edges[0]}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(requestId ? { 'x-request-id': requestId } : {}) },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  await res.arrayBuffer();
  return res;
}

async function signIn(username: string, password = PASSWORD, edge = edges[0]!, requestId?: string): Promise<{ res: Response; body: Record<string, unknown> }> {
  const res = await post(`${edge}/auth/token`, { grant_type: 'password', username, password }, { authorization: basic('story-app', APP_SECRET), ...(requestId ? { 'x-request-id': requestId } : {}) });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

const heroes = async (edge: string, token: string) => {
  const res = await fetch(`${edge}/heroes`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
};

async function events(...args: string[]): Promise<Array<Record<string, string>>> {
  return JSON.parse((await authCli(env, ['events', '--json', ...args])).stdout) as Array<Record<string, string>>;
}

/** Both edges answer `token` with 401, each having served it from its cache before. */
async function refusedEverywhere(token: string, change: () => Promise<unknown>): Promise<number> {
  for (const edge of edges) {
    await heroes(edge, token);
    if ((await heroes(edge, token)) !== 200) throw new Error(`${edge} does not accept the token before the change`);
  }
  await change();
  const changed = Date.now();
  await Promise.all(edges.map((edge) => waitFor(async () => (await heroes(edge, token)) === 401, { message: `${edge} still serves the token` })));
  return Date.now() - changed;
}

test.serial('a whole story, registration included, in the audit trail with each answer\'s X-Request-Id', async (t) => {
  const registered = await register('story-user', 'reg-1');
  t.is(registered.status, 200);
  t.is(registered.headers.get('x-request-id'), 'reg-1');
  t.is((await signIn('story-user', 'wrong passphrase', edges[0], 'in-1')).res.status, 400);
  t.is((await signIn('story-user', 'wrong passphrase', edges[1], 'in-2')).res.status, 400);
  t.is((await signIn('story-user', PASSWORD, edges[0], 'in-3')).res.status, 429);
  await authCli(env, ['users', 'unlock', 'story-user']);
  const ok = await signIn('story-user', PASSWORD, edges[1], 'in-4');
  t.is(ok.res.status, 200);
  t.is(ok.res.headers.get('x-request-id'), 'in-4');
  const refresh = String(ok.body['refresh_token']);
  const refreshOnce = await post(`${edges[0]}/auth/token`, { grant_type: 'refresh_token', refresh_token: refresh }, { authorization: basic('story-app', APP_SECRET), 'x-request-id': 'in-5' });
  t.is(refreshOnce.status, 200);
  const newAccess = String(((await refreshOnce.json()) as Record<string, unknown>)['access_token']);
  const reused = await post(`${edges[0]}/auth/token`, { grant_type: 'refresh_token', refresh_token: refresh }, { authorization: basic('story-app', APP_SECRET), 'x-request-id': 'in-6' });
  t.is(reused.status, 400);
  t.is((await heroes(edges[0]!, newAccess)), 401, 'the reuse revoked the grant');
  const last = await signIn('story-user', PASSWORD, edges[0], 'in-7');
  const revoked = await post(`${edges[1]}/auth/revoke`, { token: String(last.body['access_token']) }, { authorization: basic('story-app', APP_SECRET), 'x-request-id': 'in-8' });
  t.is(revoked.status, 200);

  const story = await events('--user', 'story-user');
  const lines = story.map((event) => `${event['requestId'] ?? '-'} ${event['type']}`);
  const order = ['reg-1', 'in-1', 'in-2', 'in-3', '-', 'in-4', 'in-5', 'in-6', 'in-7', 'in-8'];
  lines.sort((a, b) => order.indexOf(a.split(' ')[0]!) - order.indexOf(b.split(' ')[0]!) || a.localeCompare(b));
  t.deepEqual(lines, [
    'reg-1 user.registered',
    'in-1 login.failed',
    'in-2 login.failed',
    'in-3 login.throttled',
    '- user.unlocked',
    'in-4 login.succeeded',
    'in-4 token.issued',
    'in-5 token.issued',
    'in-6 refresh.reused',
    'in-7 login.succeeded',
    'in-7 token.issued',
    'in-8 token.revoked',
  ]);
  for (const event of story.filter((e) => e['requestId'])) t.is(event['address'], '127.0.0.1', `${event['type']} names the client's address, not the edge's`);
  t.false(JSON.stringify(story).includes(PASSWORD) || JSON.stringify(story).includes(APP_SECRET) || JSON.stringify(story).includes(refresh));
});

test.serial('users disable: both edges refuse the user\'s token, though each had it cached; sign-in refused', async (t) => {
  t.is((await register('disabled-user')).status, 200);
  const token = String((await signIn('disabled-user')).body['access_token']);
  const ms = await refusedEverywhere(token, () => authCli(env, ['users', 'disable', 'disabled-user']));
  t.log(`refused by both edges ${ms} ms after the command returned`);
  t.is((await signIn('disabled-user')).res.status, 400);
  await authCli(env, ['users', 'enable', 'disabled-user']);
  t.is((await heroes(edges[1]!, token)), 401, 'enabling brings no token back');
  t.is((await signIn('disabled-user')).res.status, 200);
});

test.serial('tokens revoke --user and --client: both edges refuse, the user signs in again', async (t) => {
  t.is((await register('revoked-user')).status, 200);
  const first = String((await signIn('revoked-user')).body['access_token']);
  t.log(`--user: ${await refusedEverywhere(first, () => authCli(env, ['tokens', 'revoke', '--user', 'revoked-user']))} ms`);
  const second = String((await signIn('revoked-user')).body['access_token']);
  t.log(`--client: ${await refusedEverywhere(second, () => authCli(env, ['tokens', 'revoke', '--client', 'story-app']))} ms`);
  t.is((await signIn('revoked-user')).res.status, 200);
});

test.serial('users delete: both edges refuse, the name is free again', async (t) => {
  t.is((await register('deleted-user')).status, 200);
  const token = String((await signIn('deleted-user')).body['access_token']);
  await refusedEverywhere(token, () => authCli(env, ['users', 'delete', 'deleted-user']));
  t.is((await register('deleted-user')).status, 200);
  const types = (await events('--user', 'deleted-user')).map((event) => event['type']);
  t.deepEqual(types.filter((type) => type!.startsWith('user.')), ['user.registered', 'user.deleted', 'user.registered']);
});
