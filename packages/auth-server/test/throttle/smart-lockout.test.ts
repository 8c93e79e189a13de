/**
 * Smart lockout: strangers guessing from any number of addresses cannot keep the owner out of an address it signed
 * in from before, for passwords and client secrets alike. Back-off shortened (1 s doubling to 2 s) so a guesser that
 * obeys Retry-After runs several rounds quickly.
 */
import { createHash } from 'node:crypto';
import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic } from '../_helpers/http.ts';

let s: TestServer;
let replica: TestServer;
const LIMITS = { loginBackoffMs: 1_000, loginBackoffMaxMs: 2_000, loginRefusalDelayMs: 0, loginAddressFailures: 1_000 };

test.before(async () => {
  s = await startTestServer(LIMITS);
  await addClient(s.db, { id: 'conf', secret: 'conf-secret' });
  await addClient(s.db, { id: 'svc', secret: 'svc-secret' });
  await addClient(s.db, { id: 'svc2', secret: 'svc2-secret' });
  for (const name of ['olive', 'pablo', 'quinn', 'ruth', 'sam', 'tess']) await addUser(s.db, name, `${name}-password-1`);
  // A second replica on the same database: shared counts, and a secret cache of its own (empty).
  replica = await startTestServer(LIMITS, s.testDb);
});
test.after.always(async () => {
  await replica?.close();
  await s?.close();
});

interface Answer {
  status: number;
  retryAfter: number;
  body: Record<string, unknown>;
}

async function token(server: TestServer, client: [string, string], form: Record<string, string>, address: string): Promise<Answer> {
  const res = await fetch(`${server.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic(...client), 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: new URLSearchParams(form),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0), body };
}

const login = (username: string, password: string, address: string, server = s) =>
  token(server, ['conf', 'conf-secret'], { grant_type: 'password', username, password }, address);
const clientCredentialsProbe = (server: TestServer, client: string, secret: string, address: string) =>
  token(server, [client, secret], { grant_type: 'password', username: 'quinn', password: 'quinn-password-1' }, address);

/** Guesses from a new address each time; on 429 waits the Retry-After it was given, as a patient guesser does. */
async function guessFor(rounds: number, guess: (address: string) => Promise<Answer>, onAnswer: () => Promise<void>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; answers.filter((a) => a.status === 429).length < rounds; i++) {
    const answer = await guess(`203.0.113.${i % 250}`);
    answers.push(answer);
    await onAnswer();
    if (answer.status === 429) await new Promise((resolve) => setTimeout(resolve, answer.retryAfter * 1000));
  }
  return answers;
}

test('a guesser rotating addresses and reading Retry-After cannot keep the owner out of an address with a past success', async (t) => {
  const home = '198.51.100.10';
  t.is((await login('olive', 'olive-password-1', home)).status, 200, 'the owner signed in from home once');
  // Ten wrong guesses from ten addresses: the account is blocked for strangers...
  for (let i = 0; i < 10; i++) t.is((await login('olive', `guess-${i}`, `192.0.2.${i}`)).status, 400);
  const stranger = await login('olive', 'olive-password-1', '192.0.2.200');
  t.is(stranger.status, 429, 'even the right password from a new address waits out the block');
  t.true(stranger.retryAfter >= 1);
  // ...but not for the owner at home, on either replica.
  t.is((await login('olive', 'olive-password-1', home)).status, 200);
  t.is((await login('olive', 'olive-password-1', home, replica)).status, 200);

  // The patient guesser: three blocks waited out, a new guess as each ends, the owner signing in after every answer.
  const owner: number[] = [];
  const guesses = await guessFor(3, (address) => login('olive', 'still-guessing', address), async () => {
    owner.push((await login('olive', 'olive-password-1', home)).status);
  });
  t.true(guesses.some((answer) => answer.status === 400), 'guesses were checked as blocks ended');
  t.deepEqual(owner, owner.map(() => 200), `owner: ${owner.join(' ')}`);
  // Strangers add one row for the account, never one per (account, address).
  const perPair = await s.db.loginThrottle.count({ where: { key: { startsWith: 'known:' }, OR: [{ key: { contains: ':192.0.2.' } }, { key: { contains: ':203.0.113.' } }] } });
  t.is(perPair, 0);
});

test('a known address has its own budget: failures there block it, strangers elsewhere are counted apart', async (t) => {
  const home = '198.51.100.11';
  t.is((await login('pablo', 'pablo-password-1', home)).status, 200);
  for (let i = 0; i < 10; i++) t.is((await login('pablo', `typo-${i}`, home)).status, 400);
  const blocked = await login('pablo', 'pablo-password-1', home);
  t.is(blocked.status, 429, 'ten failures from home block home');
  t.is((await login('pablo', 'pablo-password-1', '192.0.2.77')).status, 200, 'the strangers\' counter was not touched');
});

test('IPv6: the owner\'s known address is its /64, so a new temporary address (RFC 8981) keeps the owner\'s budget; strangers rotating within one /64 share one address', async (t) => {
  t.is((await login('ruth', 'ruth-password-1', '2001:db8:1:2::10')).status, 200);
  for (let i = 0; i < 10; i++) t.is((await login('ruth', `guess-${i}`, `2001:db8:ffff:${i}::1`)).status, 400);
  t.is((await login('ruth', 'ruth-password-1', '2001:db8:ffff:99::1')).status, 429, 'blocked for strangers');
  t.is((await login('ruth', 'ruth-password-1', '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).status, 200, 'the owner from a new address of the same /64');
  const key = await s.db.loginThrottle.findFirst({ where: { key: { startsWith: 'address:2001:db8:ffff:0' } } });
  t.is(key?.key, 'address:2001:db8:ffff:0::/64', 'counted per /64');
});

test('failed client authentication is throttled per client (rotating addresses do not help); the real client keeps working', async (t) => {
  const office = '198.51.100.20';
  t.is((await clientCredentialsProbe(s, 'svc', 'svc-secret', office)).status, 200, 'the real client authenticated once (remembered, and its address known)');
  const answers: Answer[] = [];
  for (let i = 0; i < 12; i++) answers.push(await clientCredentialsProbe(s, 'svc', `wrong-${i}`, `192.0.2.${100 + i}`));
  t.deepEqual(answers.slice(0, 10).map((a) => a.status), Array(10).fill(401), 'ten wrong secrets checked');
  const refused = answers[10]!;
  t.is(refused.status, 429);
  t.is(refused.body['error'], 'temporarily_unavailable');
  t.regex(String(refused.body['error_description']), /too many failed client authentications/);
  t.true(refused.retryAfter >= 1);
  // The right secret: remembered on this replica (no throttle, no queue), from anywhere.
  t.is((await clientCredentialsProbe(s, 'svc', 'svc-secret', '192.0.2.250')).status, 200);
  // The other replica has not seen it: checked, and admitted from the client's known address only.
  t.is((await clientCredentialsProbe(replica, 'svc', 'svc-secret', office)).status, 200);
});

test('a client never seen to succeed is locked for strangers while guessing lasts, within LOGIN_BACKOFF_MAX_MS after', async (t) => {
  for (let i = 0; i < 10; i++) t.is((await clientCredentialsProbe(replica, 'svc2', `wrong-${i}`, `192.0.2.${150 + i}`)).status, 401);
  const refused = await clientCredentialsProbe(replica, 'svc2', 'svc2-secret', '192.0.2.200');
  t.is(refused.status, 429);
  t.true(refused.retryAfter <= 2, `Retry-After ${refused.retryAfter} within the 2 s back-off cap`);
});

test('known addresses stay few: the 10 most recent per account, the latest always among them', async (t) => {
  for (let i = 0; i < 12; i++) t.is((await login('sam', 'sam-password-1', `198.51.100.${100 + i}`)).status, 200);
  const subject = `account:${createHash('sha256').update('sam').digest('base64url')}`;
  const kept = await s.db.loginKnownAddress.findMany({ where: { subject }, orderBy: { lastSuccessAt: 'desc' } });
  t.is(kept.length, 10);
  t.is(kept[0]?.address, '198.51.100.111');
  t.false(kept.some((row) => row.address === '198.51.100.100'), 'the oldest was dropped');
});

test('a success from a known address rewrites its time only once it is a thirtieth of the TTL old (one write per login spared), and then it does', async (t) => {
  const subject = `account:${createHash('sha256').update('tess').digest('base64url')}`;
  const address = '198.51.100.200';
  const knownSince = async () => (await s.db.loginKnownAddress.findUniqueOrThrow({ where: { subject_address: { subject, address } } })).lastSuccessAt.getTime();
  t.is((await login('tess', 'tess-password-1', address)).status, 200);
  const first = await knownSince();
  t.is((await login('tess', 'tess-password-1', address)).status, 200);
  t.is(await knownSince(), first, 'a fresh success time is left as it is');

  // 30 days known (the default): a time two days old is rewritten at the next success.
  const stale = new Date(first - 2 * 86_400_000);
  await s.db.loginKnownAddress.update({ where: { subject_address: { subject, address } }, data: { lastSuccessAt: stale } });
  t.is((await login('tess', 'tess-password-1', address)).status, 200);
  t.true(await knownSince() > stale.getTime(), 'rewritten once stale');
});
