/**
 * `auth keys rotate` with the real binary beside a running server: the new key signs ID tokens without a restart,
 * the previous one stays in the JWKS, `keys.rotated` is recorded once. When a retired key leaves: config/keys.ts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { waitFor } from '@heroes/test-kit';
import { parseKeys, publishedKeys, rotateKeys, SIGNED_LIFETIME_MS, generateKeys } from '../../src/config/keys.ts';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, postForm } from '../_helpers/http.ts';
import { runAuth } from '../_helpers/run-auth.ts';

const redirectUri = 'http://127.0.0.1:9/cb';
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-rotate-'));
const file = path.join(folder, 'auth-keys.json');
let s: TestServer;

test.before(async () => {
  const written = await runAuth(['keys', '--out', file]);
  if (written.code !== 0) throw new Error(written.stderr);
  s = await startTestServer({ keys: undefined, keysFile: file });
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri });
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(async () => {
  await s?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

async function jwksKids(): Promise<string[]> {
  const { keys } = (await (await fetch(`${s.url}/auth/jwks`)).json()) as { keys: Array<{ kid: string; d?: string }> };
  if (keys.some((key) => key.d !== undefined)) throw new Error('a private key member is published');
  return keys.map((key) => key.kid);
}

/** An ID token from the code flow: its header's kid, and whether its signature verifies against the JWKS now. */
async function idToken(): Promise<{ kid: string; verifies: () => Promise<boolean> }> {
  const authorized = await postForm(`${s.url}/auth/code`, { client_id: 'web', response_type: 'code', state: 'st', scope: 'openid', nonce: 'n-1', username: 'bob', password: 'hero-password-1' });
  const code = new URL(authorized.headers.get('location') ?? 'about:blank').searchParams.get('code') ?? '';
  const exchanged = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, { authorization: basic('web', 'web-secret') });
  const jwt = String(exchanged.body['id_token']);
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid: string };
  return {
    kid,
    async verifies() {
      const { keys } = (await (await fetch(`${s.url}/auth/jwks`)).json()) as { keys: Array<crypto.JsonWebKey & { kid: string }> };
      const jwk = keys.find((key) => key.kid === kid);
      if (!jwk) return false;
      return crypto.verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), crypto.createPublicKey({ key: jwk, format: 'jwk' }), Buffer.from(signature, 'base64url'));
    },
  };
}

test.serial('the new key signs on the running server without a restart; the previous one still verifies; recorded once', async (t) => {
  const [first] = await jwksKids();
  const before = await idToken();
  t.is(before.kid, first!);

  const rotated = await runAuth(['keys', 'rotate', '--file', file, '--json'], { databaseUrl: s.testDb.url });
  t.is(rotated.code, 0, rotated.stderr);
  const { kid, recorded } = JSON.parse(rotated.stdout) as { kid: string; recorded: boolean };
  t.true(recorded);
  t.is((fs.statSync(file).mode & 0o777).toString(8), '600');

  await waitFor(async () => (await jwksKids())[0] === kid, { message: 'the server publishes the new key' });
  t.deepEqual(await jwksKids(), [kid, first]);
  t.is((await idToken()).kid, kid, 'new ID tokens are signed with the new key');
  t.true(await before.verifies(), 'an ID token signed before the rotation still verifies');

  const listed = await runAuth(['events', '--type', 'keys.rotated', '--json'], { databaseUrl: s.testDb.url });
  const events = JSON.parse(listed.stdout) as Array<{ reason: string }>;
  t.deepEqual(events.map((event) => event.reason), [`new signing key ${kid}`], 'the CLI and the server that loaded it: one record');
});

test.serial('a broken keys file keeps the keys in use', async (t) => {
  const kids = await jwksKids();
  fs.writeFileSync(file, '{ not json', { mode: 0o600 });
  const broken = await runAuth(['keys', 'rotate', '--file', file]);
  t.is(broken.code, 1);
  t.is(broken.stderr, `${file} is not valid JSON\n`);
  t.deepEqual(await jwksKids(), kids);
  t.is((await idToken()).kid, kids[0]!);
});

test('a retired key is published until what it signed has expired, and the next rotation after that drops it', (t) => {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const first = generateKeys();
  const once = rotateKeys(first, start);
  t.deepEqual(publishedKeys(once.keys, start + SIGNED_LIFETIME_MS - 1).keys.map((key) => key.kid), [once.kid, first.jwks.keys[0]!.kid]);
  t.deepEqual(publishedKeys(once.keys, start + SIGNED_LIFETIME_MS).keys.map((key) => key.kid), [once.kid]);
  const twice = rotateKeys(once.keys, start + SIGNED_LIFETIME_MS);
  t.deepEqual(twice.dropped, [first.jwks.keys[0]!.kid]);
  t.deepEqual(twice.keys.jwks.keys.map((key) => key.kid), [twice.kid, once.kid]);
  t.deepEqual(Object.keys(twice.keys.retired ?? {}), [once.kid]);
  t.deepEqual(twice.keys.cookieKeys, first.cookieKeys, 'cookie keys are kept');
  t.deepEqual(parseKeys(JSON.stringify(twice.keys), 'f'), twice.keys);
});
