/**
 * Tripwire for src/library/library-seams.ts: fails when an oidc-provider
 * update moves anything the seams touch, so an upgrade starts there rather
 * than with a behaviour test failing far away. No server, no database.
 */
import test from 'ava';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Provider, { type Adapter } from 'oidc-provider';
import { generateKeys } from '../../src/config/keys.ts';
import {
  PARSED_BODY_WARNING,
  PINNED_VERSION,
  KEYSTORE_MODULE,
  replaceSigningKeys,
  SELECTIVE_BODY_MODULE,
  VALIDATE_DPOP_MODULE,
} from '../../src/library/library-seams.ts';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const libraryRoot = path.resolve(path.dirname(require.resolve('oidc-provider')), '..');
const librarySource = (relative: string) => fs.readFileSync(path.join(libraryRoot, relative), 'utf8');

/** A provider that stores nothing (no database needed) and prints no quick-start warnings. */
function bareProvider(): Provider {
  const keys = generateKeys();
  const adapter = class implements Adapter {
    async upsert() {}
    async find() { return undefined; }
    async findByUserCode() { return undefined; }
    async findByUid() { return undefined; }
    async consume() {}
    async destroy() {}
    async revokeByGrantId() {}
  };
  return new Provider('http://127.0.0.1:1', { adapter, jwks: keys.jwks, cookies: { keys: keys.cookieKeys }, features: { devInteractions: { enabled: false } } });
}

test('the installed oidc-provider is the version the seams fit, and package.json pins exactly it', (t) => {
  const installed = JSON.parse(fs.readFileSync(path.join(libraryRoot, 'package.json'), 'utf8')) as { name: string; version: string };
  const ours = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  t.is(installed.name, 'oidc-provider');
  t.is(installed.version, PINNED_VERSION);
  t.is(ours.dependencies['oidc-provider'], PINNED_VERSION);
});

test('seam 1: the body reader resolves, exports urlencoded, and still takes a parsed req.body with its one-time warning', async (t) => {
  const module = (await import(SELECTIVE_BODY_MODULE)) as Record<string, unknown>;
  t.is(typeof module['urlencoded'], 'function');
  const source = librarySource('lib/shared/selective_body.js');
  t.true(source.includes('ctx.req.readable'), 'the branch is chosen by req.readable');
  t.true(source.includes('ctx.req.body'), 'the branch reads req.body');
  t.true(source.includes(PARSED_BODY_WARNING), 'the warning silenceParsedBodyWarning spends');
  t.true(source.includes('querystring.stringify(body)'), 'a parsed form is re-read as strings');
});

test('seam 2: the patched member exists where the library uses it', (t) => {
  const provider = bareProvider();
  t.is(typeof (provider.Client.prototype as unknown as Record<string, unknown>)['compareClientSecret'], 'function');
  t.regex(librarySource('lib/shared/client_auth.js'), /compareClientSecret\(/, 'client authentication calls it');
  t.is(typeof Object.getOwnPropertyDescriptor(Provider, 'ctx')?.get, 'function', 'Provider.ctx: the current request');
});

test('seam 4: the keystore initializer resolves; run again, the provider publishes and signs with the new set', async (t) => {
  const module = (await import(KEYSTORE_MODULE)) as Record<string, unknown>;
  t.is(typeof module['default'], 'function');
  t.regex(librarySource('lib/provider.js'), /inititalizeKeyStore\.call\(this, configuration\.jwks\)/, 'the constructor builds the keystore with it');
  t.regex(librarySource('lib/models/id_token.js'), /instance\(provider\)\.keystore\.selectForSign/, 'ID tokens are signed from the store it fills');
  const provider = bareProvider();
  const next = generateKeys();
  await replaceSigningKeys(provider, next.jwks);
  const server = http.createServer(provider.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const published = (await (await fetch(`http://127.0.0.1:${port}/jwks`)).json()) as { keys: Array<{ kid: string }> };
    t.deepEqual(published.keys.map((key) => key.kid), next.jwks.keys.map((key) => key.kid));
  } finally {
    server.close();
  }
});

test('seams 5 and 6: the DPoP proof check and replay check are where the seams take them', async (t) => {
  const module = (await import(VALIDATE_DPOP_MODULE)) as Record<string, unknown>;
  t.is(typeof module['default'], 'function');
  t.is(typeof module['checkDpopReplay'], 'function');
  t.regex(librarySource('lib/helpers/validate_dpop.js'), /ReplayDetection\.unique\(/, 'the replay check goes through ReplayDetection.unique');
  const provider = bareProvider();
  t.is(typeof (provider.ReplayDetection as unknown as Record<string, unknown>)['unique'], 'function');
  t.regex(librarySource('lib/helpers/set_rt_bindings.js'), /case 'none'/, 'the library binds only public clients\' refresh tokens (library/dpop-binding.ts binds the rest)');
});
