/**
 * Fair forwarding through the whole stack (`npm start`, docs/http.md): no
 * client, stalled or throttled, makes another client's sign-in wait.
 * From ANOTHER process (@heroes/test-kit's socket holder), each attacker
 * socket with its own client address (TRUST_PROXY=1, as behind an ingress):
 * 1. 300 uploads send `POST /auth/token` headers with Content-Length 1000
 *    and only `grant_type=password`, then stay silent (more than the
 *    forwarding pool's 256 connections): the metadata document and a real
 *    login of another account through the edge answer 200 while every
 *    stalled upload still stalls;
 * 2. then 1,000 guessers, arriving in waves of 100 over 3 s, guess the
 *    password of a locked account, each sending its next guess as soon as
 *    its refusal (held 1 s) has come, for at most 150 s (they stop by
 *    themselves). Once every guesser has had three refusals, the metadata
 *    and a real login answer 200 while all of them still guess; and the
 *    authorization server decided at most half the refusals (its
 *    `login.throttled` events): the edge answered the repeats of a refused
 *    attempt itself. Before, every guess reached it, a thousand a second,
 *    and sign-ins through the edge waited 15–25 s behind them.
 * How long the sign-in path takes beside its idle time is a bench figure
 * (`npm run bench`, section fair-forwarding), not bounded here.
 */
import test from 'ava';
import pg from 'pg';
import { basic, createEmptyDatabase, startSocketHolder, waitFor, type HolderStatus, type SocketHolder, type TestDatabase } from '@heroes/test-kit';
import { authCli } from './_helpers/auth-cli.ts';
import { freePort, startStack, type RunningStack } from './_helpers/stack.ts';

const STALLED = 300;
const GUESSERS = 1_000;
const client = { id: 'fair-app', secret: 'fair-secret' };
const FORM = 'application/x-www-form-urlencoded';

let database: TestDatabase;
let stack: RunningStack | undefined;
let holder: SocketHolder | undefined;
let base = '';

test.before(async () => {
  database = await createEmptyDatabase();
  const [port, authPort] = [await freePort(), await freePort()];
  base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    AUTH_PORT: String(authPort),
    PUBLIC_BASE_URL: base,
    BCRYPT_COST: '4',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: '1',
    // The stalled uploads stay stalled for the whole test (the body limit is tested by the edge's own tests).
    AUTH_BODY_TIMEOUT_MS: '150000',
    REQUEST_TIMEOUT_MS: '150000',
    // One failure locks the victim for unknown addresses, for 10 minutes; each refusal is held 1 s (the default).
    LOGIN_ACCOUNT_FAILURES: '1',
    LOGIN_BACKOFF_MS: '600000',
    // A busy machine may take a while to refuse 1,000 guesses: no 503 for that here.
    AUTH_PROXY_TIMEOUT_MS: '150000',
  };
  await authCli(env, ['add-client', '--id', client.id, '--secret', client.secret]);
  stack = await startStack(env);
  for (const username of ['fair-amy', 'fair-victim']) {
    const res = await fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: `${username} password` }) });
    if (res.status !== 200) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
  }
  const wrong = await login('fair-victim', 'not the password', '192.0.2.1');
  if (wrong.status !== 400) throw new Error(`the first wrong guess answered ${wrong.status}`);
  holder = await startSocketHolder();
});

test.after.always(async () => {
  await holder?.stop();
  await stack?.stop();
  await database?.drop();
});

function login(username: string, password: string, address: string): Promise<Response> {
  return fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': FORM, 'x-forwarded-for': address },
    body: new URLSearchParams({ grant_type: 'password', username, password }),
  });
}

/** The metadata document and a real login through the edge, from an address of their own. */
async function signInPath(): Promise<{ metadata: number; login: number }> {
  const metadata = await fetch(`${base}/.well-known/oauth-authorization-server`, { headers: { 'x-forwarded-for': '198.51.100.9' } });
  await metadata.arrayBuffer();
  const real = await login('fair-amy', 'fair-amy password', '198.51.100.9');
  await real.arrayBuffer();
  return { metadata: metadata.status, login: real.status };
}

test.serial(`${STALLED} stalled uploads: metadata and a real login through the edge answer while every upload stalls`, async (t) => {
  const started = performance.now();
  await holder!.send({ cmd: 'stall', url: base, count: STALLED, path: '/auth/token' });
  t.deepEqual(await signInPath(), { metadata: 200, login: 200 });
  const status = await holder!.send<HolderStatus>({ cmd: 'status' });
  t.is(status.stallsAnswered, 0, 'answered while every stalled upload still stalls');
  t.log(`beside ${STALLED} stalled uploads: answered ${Math.round(performance.now() - started)} ms after they stalled`);
});

test.serial(`then ${GUESSERS} sustained guessers on a locked account: metadata and a real login answer while they guess, and the authorization server decides at most half their refusals`, async (t) => {
  t.timeout(300_000, 'a loaded machine refuses 1,000 new guessers at the pace of its authorization server');
  const body = new URLSearchParams({ grant_type: 'password', username: 'fair-victim', password: 'a guess' }).toString();
  const started = performance.now();
  await holder!.send({ cmd: 'guess', url: base, count: GUESSERS, path: '/auth/token', headers: { authorization: basic(client.id, client.secret), 'content-type': FORM }, body, wave: 100, everyMs: 300, repeatForMs: 150_000 });
  await waitFor(async () => (await holder!.send<HolderStatus>({ cmd: 'status' })).fewestAnswers >= 3, { timeoutMs: 150_000, intervalMs: 500, message: 'every guesser refused three times' });
  t.log(`every guesser refused three times after ${Math.round(performance.now() - started)} ms`);
  t.deepEqual(await signInPath(), { metadata: 200, login: 200 }, 'beside the stalled uploads and the guessers');
  const during = await holder!.send<HolderStatus>({ cmd: 'stop-guessing' });
  t.is(during.guessing, GUESSERS, 'answered while every guesser still guessed');
  t.is(during.stallsAnswered, 0);

  await waitFor(async () => {
    const status = await holder!.send<HolderStatus>({ cmd: 'status' });
    return status.guessing === 0 && status.guessesAnswered === status.guesses;
  }, { timeoutMs: 30_000, message: 'the last guesses answered' });
  const after = await holder!.send<HolderStatus>({ cmd: 'status' });
  t.deepEqual(after.guessStatuses, { 429: after.guessesAnswered }, 'every guess refused (429), none failed');
  const decided = await refusalsDecided('fair-victim');
  t.log(`${after.guessesAnswered} guesses answered, ${decided} refused by the authorization server itself`);
  t.true(decided * 2 <= after.guessesAnswered, `${decided} of ${after.guessesAnswered} refusals decided by the authorization server`);
});

/** The refusals the authorization server decided for `username` (its audit trail's login.throttled events). */
async function refusalsDecided(username: string): Promise<number> {
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  try {
    const { rows } = await sql.query<{ n: string }>("SELECT count(*) AS n FROM audit_events WHERE type = 'login.throttled' AND username = $1", [username]);
    return Number(rows[0]!.n);
  } finally {
    await sql.end();
  }
}
