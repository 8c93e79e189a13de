/**
 * The service through a real PgBouncer (Debian's), as operators scale it: 2 authorization servers and 2 resource
 * servers whose DATABASE_URL is the pooler's, with the time limits set on the database (the pooler drops them as
 * startup parameters, docs/operations.md). One suite, run by one test file per pool mode
 * (pgbouncer-transaction.test.ts, pgbouncer-session.test.ts): registration, tokens of every grant, hero CRUD across
 * replicas, the login throttle shared, and a statement time limit answered 503 with nothing written.
 *
 * More checks through the pooler: add a `test.serial` inside definePoolerSuite, using `cluster()` (replicas,
 * pooler, database URLs) and the helpers below.
 */
import crypto from 'node:crypto';
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { basic, passwordToken, startPgBouncer, waitFor, type PgBouncer } from '@heroes/test-kit';
import { authCli } from './auth-cli.ts';
import { submitLoginForm } from './login-form.ts';
import { PASSWORD_CLIENT_ID, registerPasswordClient } from './password-client.ts';
import { startReplicas, type Replicas } from './replicas.ts';

/** The replicas' DB_QUERY_TIMEOUT_MS, also set on the database (what the pooler cannot pass on). */
export const QUERY_TIMEOUT_MS = 1_500;
export const LOGIN_ADDRESS_FAILURES = 4;
export const WEB_CLIENT = { id: 'pooled-web', secret: 'pooled-web-secret', redirectUri: 'https://web.pooled.example/cb' };
export const SERVICE_CLIENT = { id: 'pooled-service', secret: 'pooled-service-secret' };

export interface PooledCluster {
  mode: 'transaction' | 'session';
  database: TestDatabase;
  bouncer: PgBouncer;
  replicas: Replicas;
}

export const json = (body: unknown) => ({ 'content-type': 'application/json', body: JSON.stringify(body) });

export async function register(edge: string, username: string, password = 'pooled-password-1'): Promise<Response> {
  return fetch(`${edge}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
}

export function heroRequest(edge: string, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${edge}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

export function tokenForm(edge: string, body: Record<string, string>, authorization?: string): Promise<Response> {
  return fetch(`${edge}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
    body: new URLSearchParams(body).toString(),
  });
}

export function definePoolerSuite(mode: 'transaction' | 'session'): void {
  let current: PooledCluster | undefined;
  const cluster = () => {
    if (!current) throw new Error('the pooled cluster did not start');
    return current;
  };

  test.before(async () => {
    const database = await createTestDatabase();
    // What an operator sets behind a pooler that drops the startup parameters (docs/operations.md).
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${database.name} SET statement_timeout = ${QUERY_TIMEOUT_MS}`);
    await admin.query(`ALTER DATABASE ${database.name} SET lock_timeout = ${QUERY_TIMEOUT_MS}`);
    await admin.end();
    // Session mode: every process's pool plus one listener per edge, and room to spare (docs/operations.md).
    const bouncer = await startPgBouncer({ serverUrl: database.url, poolMode: mode, poolSize: mode === 'session' ? 60 : 10 });
    current = { mode, database, bouncer, replicas: undefined as unknown as Replicas };
    current.replicas = await startReplicas({
      databaseUrl: bouncer.url(database.name),
      directUrl: database.url,
      env: {
        DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
        LOGIN_ADDRESS_FAILURES: String(LOGIN_ADDRESS_FAILURES),
        LOGIN_ACCOUNT_FAILURES: '1000',
        LOGIN_REFUSAL_DELAY_MS: '0',
        REGISTER_ADDRESS_LIMIT: '1000',
        DB_POOL_SIZE: '4',
        AUTH_DB_POOL_SIZE: '4',
      },
    });
    await authCli(current.replicas.env, ['add-client', '--id', WEB_CLIENT.id, '--secret', WEB_CLIENT.secret, '--redirect-uri', WEB_CLIENT.redirectUri]);
    await authCli(current.replicas.env, ['add-client', '--id', SERVICE_CLIENT.id, '--secret', SERVICE_CLIENT.secret, '--grant-types', 'client_credentials', '--allowed-scopes', 'heroes:read']);
    await registerPasswordClient(database.url);
  });

  test.after.always(async () => {
    await current?.replicas?.stop();
    await current?.bouncer.stop();
    await current?.database.drop();
  });

  test.serial(`${mode} pooling: registration through either edge`, async (t) => {
    const { edges } = cluster().replicas;
    const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => register(edges[i % 2]!.url, `pooled-user-${i}`).then((r) => r.status)));
    t.deepEqual(statuses, Array(10).fill(200));
    const again = await register(edges[1]!.url, 'pooled-user-0');
    t.is(again.status, 409);
  });

  test.serial(`${mode} pooling: tokens of every grant, each used at the other edge`, async (t) => {
    const { edges, base } = cluster().replicas;
    const [one, two] = [edges[0]!.url, edges[1]!.url];
    t.is((await register(one, 'grant-user')).status, 200);
    // Password grant, several at once through both edges.
    const passwordTokens = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      passwordToken(edges[i % 2]!.url, { id: PASSWORD_CLIENT_ID }, 'grant-user', 'pooled-password-1')));
    for (const [i, { access_token }] of passwordTokens.entries()) {
      t.is((await heroRequest(edges[(i + 1) % 2]!.url, access_token, 'GET', '/heroes')).status, 200);
    }
    // Authorization code with PKCE: the login page at one edge, the code redeemed at the other.
    const verifier = crypto.randomBytes(32).toString('base64url');
    const authorizationUrl = new URL(`${base}/auth/code`);
    for (const [name, value] of Object.entries({
      response_type: 'code', client_id: WEB_CLIENT.id, redirect_uri: WEB_CLIENT.redirectUri, state: 'pooled-state',
      code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    })) authorizationUrl.searchParams.set(name, value);
    const login = await submitLoginForm(authorizationUrl, { username: 'grant-user', password: 'pooled-password-1' });
    t.is(login.response.status, 302, await login.response.clone().text());
    const code = new URL(login.response.headers.get('location')!).searchParams.get('code');
    t.truthy(code);
    const client = basic(WEB_CLIENT.id, WEB_CLIENT.secret);
    const exchanged = await tokenForm(two, { grant_type: 'authorization_code', code: code!, redirect_uri: WEB_CLIENT.redirectUri, code_verifier: verifier }, client);
    t.is(exchanged.status, 200, await exchanged.clone().text());
    const codeTokens = (await exchanged.json()) as { access_token: string; refresh_token?: string };
    t.is((await heroRequest(one, codeTokens.access_token, 'GET', '/heroes')).status, 200);
    // Refresh token: redeemed at the first edge, the new access token used at the second.
    t.truthy(codeTokens.refresh_token);
    const refreshed = await tokenForm(one, { grant_type: 'refresh_token', refresh_token: codeTokens.refresh_token! }, client);
    t.is(refreshed.status, 200, await refreshed.clone().text());
    const refreshedTokens = (await refreshed.json()) as { access_token: string };
    t.is((await heroRequest(two, refreshedTokens.access_token, 'GET', '/heroes')).status, 200);
    // Client credentials: a service's own token from the second edge, used at the first.
    const service = await tokenForm(two, { grant_type: 'client_credentials', scope: 'heroes:read' }, basic(SERVICE_CLIENT.id, SERVICE_CLIENT.secret));
    t.is(service.status, 200, await service.clone().text());
    t.is((await heroRequest(one, ((await service.json()) as { access_token: string }).access_token, 'GET', '/heroes')).status, 200);
    // Revocation at one edge: the other edge refuses the token (the feed, or the cache's bound).
    const revoked = await fetch(`${one}/auth/revoke`, {
      method: 'POST',
      headers: { authorization: client, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshedTokens.access_token }).toString(),
    });
    t.is(revoked.status, 200);
  });

  test.serial(`${mode} pooling: hero CRUD across replicas`, async (t) => {
    const { edges } = cluster().replicas;
    t.is((await register(edges[0]!.url, 'crud-user')).status, 200);
    const token = (await passwordToken(edges[0]!.url, { id: PASSWORD_CLIENT_ID }, 'crud-user', 'pooled-password-1')).access_token;
    // Rounds in parallel, each crossing edges, so that statements of one connection meet another's.
    const round = async (i: number) => {
      const [writer, reader] = i % 2 === 0 ? [edges[0]!.url, edges[1]!.url] : [edges[1]!.url, edges[0]!.url];
      const created = await heroRequest(writer, token, 'POST', '/heroes', { name: `Pooled ${mode} ${i}` });
      if (created.status !== 200) return `POST ${created.status} ${await created.text()}`;
      const { id } = (await created.json()) as { id: number };
      const read = await heroRequest(reader, token, 'GET', `/heroes/${id}`);
      if (read.status !== 200) return `GET ${read.status} ${await read.text()}`;
      const renamed = await heroRequest(reader, token, 'PUT', `/heroes/${id}`, { name: `Renamed ${mode} ${i}` });
      if (renamed.status !== 200) return `PUT ${renamed.status} ${await renamed.text()}`;
      const listed = await heroRequest(writer, token, 'GET', `/heroes?name=${encodeURIComponent(`renamed ${mode} ${i}`)}`);
      const names = listed.status === 200 ? ((await listed.json()) as { name: string }[]).map((h) => h.name) : [];
      if (!names.includes(`Renamed ${mode} ${i}`)) return `search ${listed.status} ${JSON.stringify(names)}`;
      const removed = await heroRequest(writer, token, 'DELETE', `/heroes/${id}`);
      if (removed.status !== 200 && removed.status !== 204) return `DELETE ${removed.status}`;
      const gone = await heroRequest(reader, token, 'GET', `/heroes/${id}`);
      return gone.status === 404 ? 'ok' : `GET after DELETE ${gone.status}`;
    };
    const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => round(i)));
    t.deepEqual(outcomes.filter((o) => o !== 'ok'), []);
  });

  test.serial(`${mode} pooling: the login throttle is shared by the replicas`, async (t) => {
    const { edges } = cluster().replicas;
    t.is((await register(edges[0]!.url, 'throttle-user')).status, 200);
    const attempt = (edge: string, password: string) =>
      tokenForm(edge, { grant_type: 'password', client_id: PASSWORD_CLIENT_ID, username: 'throttle-user', password });
    // The address's failures, half through each edge (and so each authorization server).
    for (let i = 0; i < LOGIN_ADDRESS_FAILURES; i++) {
      const res = await attempt(edges[i % 2]!.url, `wrong-password-${i}`);
      t.is(res.status, 400, await res.clone().text());
    }
    for (const edge of edges) {
      const refused = await attempt(edge.url, 'pooled-password-1');
      t.is(refused.status, 429, await refused.clone().text());
      t.truthy(refused.headers.get('retry-after'));
    }
    // The next checks log in from the same address.
    const admin = new pg.Client({ connectionString: cluster().database.url });
    await admin.connect();
    await admin.query("DELETE FROM login_throttles WHERE key LIKE 'address:%'");
    await admin.end();
  });

  test.serial(`${mode} pooling: a statement over the time limit answers 503 and writes nothing`, async (t) => {
    const { replicas, database } = cluster();
    const edge = replicas.edges[1]!.url;
    t.is((await register(edge, 'limit-user')).status, 200);
    const token = (await passwordToken(edge, { id: PASSWORD_CLIENT_ID }, 'limit-user', 'pooled-password-1')).access_token;
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    t.teardown(() => locker.end());
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE heroes IN ACCESS EXCLUSIVE MODE');
    const answer = await heroRequest(edge, token, 'POST', '/heroes', { name: `Locked out ${mode}` });
    t.is(answer.status, 503, await answer.clone().text());
    t.regex(((await answer.json()) as { error: string }).error, /database/);
    await locker.query('COMMIT');
    // Nothing was written, then or later (a write still pending on the server would show up once the lock lifts).
    const later = await heroRequest(edge, token, 'POST', '/heroes', { name: `After the lock ${mode}` });
    t.is(later.status, 200);
    await waitFor(async () => (await locker.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'INSERT INTO heroes%'",
    )).rows[0].n === 0, { message: 'an INSERT is still running' });
    const { rows } = await locker.query('SELECT name FROM heroes WHERE name = $1', [`Locked out ${mode}`]);
    t.deepEqual(rows, []);
  });

  test.serial(`${mode} pooling: no answer was a 500`, async (t) => {
    const { replicas } = cluster();
    const logs = [...replicas.auths, ...replicas.edges].map((r) => r.output()).join('\n');
    t.notRegex(logs, /"status":500\b/);
    t.notRegex(logs, /prepared statement/);
  });
}
