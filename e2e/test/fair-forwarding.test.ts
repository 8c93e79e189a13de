/**
 * Fair forwarding through the whole stack (`npm start`, docs/http.md): no
 * client, stalled or throttled, makes another client's sign-in wait.
 * From ANOTHER process (_helpers/socket-holder.ts), each attacker socket with
 * its own client address (TRUST_PROXY=1, as behind an ingress):
 * 1. 300 uploads send `POST /auth/token` headers with Content-Length 1000
 *    and only `grant_type=password`, then stay silent (more than the
 *    forwarding pool's 256 connections);
 * 2. then 1,000 guesses at an account the throttle refuses (each refusal
 *    held on purpose, here 60 s), arriving in waves of 100 over 3 s.
 * After each, the metadata document and a real login of another account
 * through the edge answer 200 while every stalled upload and every held
 * refusal is still unanswered (before the fix they waited for those to
 * end). How long they take beside their idle times is a bench figure
 * (`npm run bench`, section fair-forwarding), not bounded here.
 */
import test from 'ava';
import { createEmptyDatabase, type TestDatabase } from '@heroes/test-kit';
import { basic } from '@heroes/test-kit';
import { authCli } from './_helpers/auth-cli.ts';
import { startSocketHolder, type HolderStatus, type SocketHolder } from './_helpers/socket-holder.ts';
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
    // One failure locks the victim for unknown addresses; each refusal is held a minute (the most allowed).
    LOGIN_ACCOUNT_FAILURES: '1',
    LOGIN_BACKOFF_MS: '600000',
    LOGIN_REFUSAL_DELAY_MS: '60000',
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

test.serial(`${STALLED} stalled uploads, then ${GUESSERS} throttled guessers: metadata and a real login through the edge still answer`, async (t) => {
  let started = performance.now();
  await holder!.send({ cmd: 'stall', url: base, count: STALLED, path: '/auth/token' });
  t.deepEqual(await signInPath(), { metadata: 200, login: 200 }, 'beside the stalled uploads');
  const afterStalls = await holder!.send<HolderStatus>({ cmd: 'status' });
  t.is(afterStalls.stallsAnswered, 0, 'answered while every stalled upload still stalls');
  t.log(`beside ${STALLED} stalled uploads: answered ${Math.round(performance.now() - started)} ms after they stalled`);

  const body = new URLSearchParams({ grant_type: 'password', username: 'fair-victim', password: 'a guess' }).toString();
  started = performance.now();
  await holder!.send({ cmd: 'guess', url: base, count: GUESSERS, path: '/auth/token', headers: { authorization: basic(client.id, client.secret), 'content-type': FORM }, body, wave: 100, everyMs: 300 });
  t.deepEqual(await signInPath(), { metadata: 200, login: 200 }, 'beside the stalled uploads and the held refusals');
  const afterGuesses = await holder!.send<HolderStatus>({ cmd: 'status' });
  t.log(`beside ${GUESSERS} guesses too: answered ${Math.round(performance.now() - started)} ms after they were sent`);
  t.is(afterGuesses.guessesAnswered, 0, `answered while every refusal is still held (answers so far: ${JSON.stringify(afterGuesses.guessStatuses)})`);
  t.is(afterGuesses.stallsAnswered, 0);
});
