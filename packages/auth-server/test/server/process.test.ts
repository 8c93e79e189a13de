import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from '@heroes/test-kit';
import { addClient, addUser } from '../_helpers/fixtures.ts';
import { basic, passwordGrant } from '../_helpers/http.ts';
import { spawnServer } from '../_helpers/spawn-server.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test, async (db) => {
  await addClient(db, { id: 'app', secret: 'app-secret' });
  await addUser(db, 'bob', 'hero-password-1');
});
let dir: string;

test.before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-process-'));
});
test.after.always(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('node --import tsx src/main.ts serves tokens, logs one JSON line per request, and stops on SIGTERM', async (t) => {
  const keysFile = path.join(dir, 'keys', 'auth-keys.json');
  const server = await spawnServer({
    DATABASE_URL: ctx.url,
    AUTH_PORT: '0',
    AUTH_HOST: '127.0.0.1',
    AUTH_KEYS_FILE: keysFile,
    PUBLIC_BASE_URL: 'http://localhost:8888',
    BCRYPT_COST: '4',
  });
  try {
    const res = await passwordGrant(server.url, basic('app', 'app-secret'), { username: 'bob', password: 'hero-password-1' });
    t.is(res.status, 200);
    t.is(res.body['token_type'], 'bearer');
    t.is(fs.statSync(keysFile).mode & 0o777, 0o600, 'keys generated on first start, mode 0600');

    const requestLine = await waitFor(() => {
      const lines = server.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
      return lines.find((line) => line['msg'] === 'request' && line['path'] === '/auth/token');
    }, { message: () => server.output() });
    t.is(requestLine?.['method'], 'POST');
    t.is(requestLine?.['status'], 200);
    t.is(typeof requestLine?.['ms'], 'number');
    t.false(server.output().includes('hero-password-1'), 'no password in the log');
    t.false(server.output().includes(String(res.body['access_token'])), 'no token in the log');
    t.notRegex(server.output(), /Unsupported runtime|oidc-provider WARNING|oidc-provider NOTICE|development keys|devInteractions/i);
  } finally {
    t.is(await server.stop('SIGTERM'), 0);
  }
});

test('the process refuses to start without DATABASE_URL', async (t) => {
  const error = await t.throwsAsync(spawnServer({ DATABASE_URL: '', AUTH_PORT: '0', AUTH_KEYS_FILE: path.join(dir, 'k2.json') }));
  t.regex(error?.message ?? '', /DATABASE_URL is required/);
});
