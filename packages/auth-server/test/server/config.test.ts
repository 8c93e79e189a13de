import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, loadOrCreateKeys } from '../../src/index.ts';

test('defaults', (t) => {
  const config = loadConfig({ DATABASE_URL: 'postgresql://x/y' });
  t.is(config.port, 8889);
  t.is(config.host, '0.0.0.0');
  t.is(config.publicBaseUrl, 'http://localhost:8888');
  t.is(config.accessTokenTtl, 86_400);
  t.is(config.codeAccessTokenTtl, 3_600);
  t.is(config.authCodeTtl, 600);
  t.is(config.refreshTokenTtl, 30 * 86_400);
  t.is(config.bcryptCost, 10);
  t.is(config.resourceServerClientId, 'resource-server');
  t.true(config.keysFile.endsWith(path.join('.data', 'auth-keys.json')));
  t.is(config.authMaxBodyBytes, 64 * 1024);
});

test("the issuer defaults to the edge's address: http://localhost:$PORT, as the resource server's PUBLIC_BASE_URL", (t) => {
  t.is(loadConfig({ DATABASE_URL: 'postgresql://x/y', PORT: '9000' }).publicBaseUrl, 'http://localhost:9000');
  t.is(loadConfig({ DATABASE_URL: 'postgresql://x/y', PORT: '9000', PUBLIC_BASE_URL: 'https://heroes.example' }).publicBaseUrl, 'https://heroes.example');
  t.throws(() => loadConfig({ DATABASE_URL: 'postgresql://x/y', PORT: 'abc' }), { message: /^PORT must be an integer from 0 to 65535/ });
});

test('environment overrides', (t) => {
  const config = loadConfig({
    DATABASE_URL: 'postgresql://x/y',
    AUTH_PORT: '9999',
    AUTH_HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'https://heroes.example/',
    ACCESS_TOKEN_TTL: '60',
    AUTH_CODE_TTL: '30',
    REFRESH_TOKEN_TTL: '120',
    BCRYPT_COST: '12',
    AUTH_KEYS_FILE: '/tmp/k.json',
    RESOURCE_SERVER_CLIENT_ID: 'rs',
    AUTH_MAX_BODY_BYTES: '2048',
  });
  t.is(config.port, 9999);
  t.is(config.host, '127.0.0.1');
  t.is(config.publicBaseUrl, 'https://heroes.example');
  t.is(config.accessTokenTtl, 60);
  t.is(config.authCodeTtl, 30);
  t.is(config.refreshTokenTtl, 120);
  t.is(config.bcryptCost, 12);
  t.is(config.keysFile, '/tmp/k.json');
  t.is(config.resourceServerClientId, 'rs');
  t.is(config.authMaxBodyBytes, 2048);
});

test('bad values are one-line errors naming the variable', (t) => {
  t.throws(() => loadConfig({}), { message: /DATABASE_URL/ });
  t.throws(() => loadConfig({ DATABASE_URL: 'postgresql://x/y', AUTH_PORT: 'abc' }), { message: /AUTH_PORT/ });
  t.throws(() => loadConfig({ DATABASE_URL: 'postgresql://x/y', BCRYPT_COST: '3' }), { message: /BCRYPT_COST/ });
  t.throws(() => loadConfig({ DATABASE_URL: 'postgresql://x/y', PUBLIC_BASE_URL: 'ftp://a' }), { message: /PUBLIC_BASE_URL/ });
  t.throws(() => loadConfig({ DATABASE_URL: 'postgresql://x/y', ACCESS_TOKEN_TTL: '0' }), { message: /ACCESS_TOKEN_TTL/ });
  t.throws(() => loadConfig({ DATABASE_URL: 'postgresql://x/y', AUTH_MAX_BODY_BYTES: '10MB' }), { message: /AUTH_MAX_BODY_BYTES/ });
});

test('keys are generated once, written 0600, then reused', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-keys-'));
  const file = path.join(dir, 'nested', 'auth-keys.json');
  try {
    const first = loadOrCreateKeys(file);
    t.is(fs.statSync(file).mode & 0o777, 0o600);
    t.is(first.jwks.keys.length, 1);
    t.is(first.jwks.keys[0]?.alg, 'RS256');
    t.is(first.cookieKeys.length, 2);
    t.deepEqual(loadOrCreateKeys(file), first);
    fs.writeFileSync(file, '{}');
    t.throws(() => loadOrCreateKeys(file), { message: /not a valid keys file/ });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
