/**
 * `auth users …` and `auth tokens revoke` with the real binary against a
 * running server and its database: what each changes, what the server then
 * refuses, the revocation notice resource servers act on, the audit event,
 * and one line with exit code 1 for an unknown name.
 */
import test from 'ava';
import { TOKENS_REVOKED_CHANNEL } from '../../src/index.ts';
import { accountSubject } from '../../src/throttle/login-throttle.ts';
import { addClient, addUser, RESOURCE_SERVER_CLIENT, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, introspectAsResourceServer, passwordGrant, postForm } from '../_helpers/http.ts';
import { listen } from '../_helpers/listen.ts';
import { runAuth } from '../_helpers/run-auth.ts';

const SECRET = 'app-secret-0123456789';
let s: TestServer;
const auth = (...args: string[]) => runAuth(args, { databaseUrl: s.testDb.url });
const signIn = (username: string, password = `${username}-password`) => passwordGrant(s.url, basic('app', SECRET), { username, password });

test.before(async () => {
  s = await startTestServer({ resourceServerClientId: RESOURCE_SERVER_CLIENT.id, loginAccountFailures: 1, loginRefusalDelayMs: 0, loginBackoffMs: 600_000 });
  await addClient(s.db, { id: 'app', secret: SECRET });
  await addClient(s.db, RESOURCE_SERVER_CLIENT);
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin']) await addUser(s.db, name, `${name}-password`);
});
test.after.always(() => s?.close());

async function lastEvent(type: string): Promise<Record<string, string>> {
  const result = await auth('events', '--type', type, '--json');
  return (JSON.parse(result.stdout) as Array<Record<string, string>>).at(-1)!;
}

// Serial: NOTIFY is database-wide.
test.serial('users disable: sign-in refused, every token revoked and announced; enable lets the user in again', async (t) => {
  const first = await signIn('alice');
  t.is(first.status, 200);
  const accessToken = String(first.body['access_token']);
  const refreshToken = String(first.body['refresh_token']);
  t.true((await introspectAsResourceServer(s.url, accessToken)).body['active'] as boolean);

  const listener = await listen(s.testDb.url, TOKENS_REVOKED_CHANNEL);
  try {
    const disabled = await auth('users', 'disable', 'alice');
    t.is(disabled.code, 0, disabled.stderr);
    t.regex(disabled.stdout, /^User 'alice' disabled \(1 access token\(s\), 1 refresh token\(s\), 0 code\(s\) revoked\) in /);
    await listener.waitFor((payload) => payload['userId'] !== undefined);
  } finally {
    await listener.close();
  }
  t.false((await introspectAsResourceServer(s.url, accessToken)).body['active'] as boolean);
  const refresh = await postForm(`${s.url}/auth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken }, { authorization: basic('app', SECRET) });
  t.is(refresh.body['error'], 'invalid_grant');
  const refused = await signIn('alice');
  t.is(refused.status, 400);
  t.deepEqual(refused.body, (await signIn('nobody', 'any-password')).body, 'as an unknown user or a wrong password: nothing says the account exists');
  t.is((await auth('events', '--user', 'alice', '--type', 'login.failed', '--json')).stdout.match(/user disabled/g)?.length, 1);
  t.is((await lastEvent('user.disabled'))['username'], 'alice');

  const again = await auth('users', 'disable', 'alice', '--json');
  t.deepEqual(JSON.parse(again.stdout), { username: 'alice', changed: false, revoked: { accessTokens: 0, refreshTokens: 0, authorizationCodes: 0 } });

  const listed = JSON.parse((await auth('users', 'list', '--json')).stdout) as Array<Record<string, unknown>>;
  t.like(listed.find((user) => user['username'] === 'alice'), { disabled: true, activeTokens: 0 });

  const enabled = await auth('users', 'enable', 'alice');
  t.is(enabled.code, 0, enabled.stderr);
  t.is((await auth('users', 'unlock', 'alice')).code, 0, 'the refused sign-in counted as a failure (LOGIN_ACCOUNT_FAILURES=1)');
  t.is((await signIn('alice')).status, 200);
  t.is((await lastEvent('user.enabled'))['username'], 'alice');
});

test.serial('users unlock clears the login throttle of the account, and tells the edges (unlockedAccount on the revocation feed)', async (t) => {
  t.is((await signIn('bob', 'not-bobs-password')).status, 400);
  t.is((await signIn('bob')).status, 429, 'locked out after a failure (LOGIN_ACCOUNT_FAILURES=1)');
  const list = (await auth('users', 'list')).stdout;
  t.regex(list, /^bob\s+locked until \d{4}-/m);
  const listener = await listen(s.testDb.url, TOKENS_REVOKED_CHANNEL);
  try {
    const unlocked = await auth('users', 'unlock', 'bob', '--json');
    t.is(unlocked.code, 0, unlocked.stderr);
    t.true((JSON.parse(unlocked.stdout) as { cleared: number }).cleared >= 1);
    const notice = await listener.waitFor((payload) => payload['unlockedAccount'] !== undefined);
    t.deepEqual(notice, { unlockedAccount: accountSubject('bob') }, 'the account only: cached tokens stay');
  } finally {
    await listener.close();
  }
  t.is((await signIn('bob')).status, 200);
});

test.serial('users delete removes the user and everything issued to them', async (t) => {
  const token = String((await signIn('carol')).body['access_token']);
  const deleted = await auth('users', 'delete', 'carol', '--json');
  t.is(deleted.code, 0, deleted.stderr);
  t.deepEqual(JSON.parse(deleted.stdout), { username: 'carol', revoked: { accessTokens: 1, refreshTokens: 1, authorizationCodes: 0 } });
  t.is(await s.db.user.findUnique({ where: { username: 'carol' } }), null);
  t.false((await introspectAsResourceServer(s.url, token)).body['active'] as boolean);
  t.is((await signIn('carol')).status, 400);
  t.is((await lastEvent('user.deleted'))['username'], 'carol');
});

test.serial('tokens revoke --user and --client end every grant, the user and client stay', async (t) => {
  const dave = String((await signIn('dave')).body['access_token']);
  const erin = String((await signIn('erin')).body['access_token']);
  const byUser = await auth('tokens', 'revoke', '--user', 'dave');
  t.is(byUser.code, 0, byUser.stderr);
  t.false((await introspectAsResourceServer(s.url, dave)).body['active'] as boolean);
  t.true((await introspectAsResourceServer(s.url, erin)).body['active'] as boolean, 'another user keeps hers');
  t.is((await signIn('dave')).status, 200, 'a revocation is not a ban');

  const byClient = await auth('tokens', 'revoke', '--client', 'app', '--json');
  t.is(byClient.code, 0, byClient.stderr);
  t.is((JSON.parse(byClient.stdout) as { clientId: string }).clientId, 'app');
  t.false((await introspectAsResourceServer(s.url, erin)).body['active'] as boolean);
  t.like(await lastEvent('token.revoked'), { clientId: 'app' });
});

test('unknown names: exit 1 and one line', async (t) => {
  for (const args of [['users', 'disable', 'ghost'], ['users', 'enable', 'ghost'], ['users', 'unlock', 'ghost'], ['users', 'delete', 'ghost'], ['tokens', 'revoke', '--user', 'ghost']]) {
    const result = await auth(...args);
    t.is(result.code, 1, args.join(' '));
    t.is(result.stderr, "User 'ghost' does not exist.\n");
    t.is(result.stdout, '');
  }
  const client = await auth('tokens', 'revoke', '--client', 'ghost', '--json');
  t.is(client.code, 1);
  t.deepEqual(JSON.parse(client.stderr), { error: 'client_not_found', message: "Client ID 'ghost' does not exist." });
  const neither = await auth('tokens', 'revoke');
  t.is(neither.code, 1);
  t.is(neither.stderr, 'Give exactly one of --user or --client.\n');
  const badType = await auth('events', '--type', 'login.maybe');
  t.is(badType.code, 1);
  t.regex(badType.stderr, /^Unknown event type 'login.maybe'; one of: user.registered, .*\n$/);
});
