/**
 * `auth keys`: the production keys file, made without running the stack or
 * touching a database, in the format the authorization server loads.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { loadOrCreateKeys } from '../../src/config/keys.ts';
import { runAuth } from '../_helpers/run-auth.ts';

const noDatabase = { env: { DATABASE_URL: '', HEROES_DATA_DIR: path.join(os.tmpdir(), 'heroes-keys-no-data') } };

test('auth keys --out writes a 0600 keys file the server loads, and never replaces one', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-keys-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'auth-keys.json');
  const made = await runAuth(['keys', '--out', file], noDatabase);
  t.is(made.code, 0, made.stderr);
  t.is(made.stdout, `Keys written to ${file} (mode 0600): set AUTH_KEYS_FILE to it on every authorization server.\n`);
  t.is(fs.statSync(file).mode & 0o777, 0o600);
  const keys = loadOrCreateKeys(file);
  t.is(keys.jwks.keys[0]!['alg'], 'RS256');
  t.truthy(keys.jwks.keys[0]!['d'], 'a private key');
  t.is(keys.cookieKeys.length, 2);

  const before = fs.readFileSync(file, 'utf8');
  const again = await runAuth(['keys', '--out', file], noDatabase);
  t.is(again.code, 1);
  t.is(again.stderr, `${file} exists; keys are never replaced (what they signed depends on them): choose another --out or remove it first.\n`);
  t.is(fs.readFileSync(file, 'utf8'), before);
});

test('auth keys prints a fresh keys file on stdout', async (t) => {
  const [a, b] = [await runAuth(['keys'], noDatabase), await runAuth(['keys'], noDatabase)];
  t.is(a.code, 0, a.stderr);
  const parsed = JSON.parse(a.stdout) as { jwks: { keys: { kid: string }[] }; cookieKeys: string[] };
  t.is(parsed.jwks.keys.length, 1);
  t.not(parsed.jwks.keys[0]!.kid, (JSON.parse(b.stdout) as typeof parsed).jwks.keys[0]!.kid);
});
