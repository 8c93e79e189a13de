/**
 * The proof check's header cache (dpop-proof-key.ts) and the signature check
 * with node:crypto (dpop-proof-signature.ts), without a server: every accepted alg
 * verifies and yields the RFC 7638 thumbprint; a cached key serves only its
 * own header; refused headers are never stored; the cache stays bounded.
 */
import crypto from 'node:crypto';
import test from 'ava';
import { exportJWK, generateKeyPair } from 'jose';
import { accessTokenHash, createDpopKey, dpopProof, type DpopKey, type ProofClaims } from '@heroes/test-kit';
import { createProofKeyCache, type ProofKeyCache } from '../../src/auth/dpop-proof-key.ts';
import { DpopProofError, verifyDpopProof as verifyWith, type ProofExpectation } from '../../src/auth/dpop-proof.ts';
import { cachedSignatureCheck } from '../../src/auth/dpop-proof-signature.ts';

const URL_ = 'https://api.example/heroes';
const TOKEN = 'token-value';
const expected = { method: 'GET', url: URL_, accessToken: TOKEN, windowSeconds: 60 };
const proof = (key: DpopKey, claims: Partial<ProofClaims> = {}) => dpopProof(key, { htm: 'GET', htu: URL_, accessToken: TOKEN, ...claims });
const verifyDpopProof = (dpop: string, expectation: ProofExpectation, keys: ProofKeyCache) => verifyWith(dpop, expectation, cachedSignatureCheck(keys));
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWS signed by hand (for keys and headers jose refuses to produce). */
function handSigned(header: Record<string, unknown>, sign: (input: Buffer) => Buffer, claims: Record<string, unknown> = {}): string {
  const payload = { htm: 'GET', htu: URL_, jti: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000), ath: accessTokenHash(TOKEN), ...claims };
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(Buffer.from(input)).toString('base64url')}`;
}

async function refused(t: import('ava').ExecutionContext, dpop: string, keys: ProofKeyCache, message: RegExp): Promise<void> {
  const err = await t.throwsAsync(verifyDpopProof(dpop, expected, keys), { instanceOf: DpopProofError });
  t.regex(err?.message ?? '', message);
}

for (const alg of ['ES256', 'EdDSA', 'RS256', 'PS256']) {
  test(`${alg}: a proof verifies and carries its key's RFC 7638 thumbprint; a tampered signature does not`, async (t) => {
    const keys = createProofKeyCache();
    const key = await createDpopKey(alg);
    const dpop = await proof(key);
    t.is((await verifyDpopProof(dpop, expected, keys)).jkt, key.jkt);
    t.is((await verifyDpopProof(await proof(key), expected, keys)).jkt, key.jkt, 'served from the cache');
    const signature = Buffer.from(dpop.slice(dpop.lastIndexOf('.') + 1), 'base64url');
    signature[0]! ^= 1;
    await refused(t, `${dpop.slice(0, dpop.lastIndexOf('.'))}.${signature.toString('base64url')}`, keys, /signature does not verify/);
  });
}

test('a key cached for one header is never used for another: a proof naming key A but signed by B is refused, B gets its own entry', async (t) => {
  const keys = createProofKeyCache();
  const [a, b] = [await createDpopKey(), await createDpopKey()];
  t.is((await verifyDpopProof(await proof(a), expected, keys)).jkt, a.jkt);
  await refused(t, await proof(b, { header: { jwk: a.publicJwk } }), keys, /signature does not verify/);
  t.is((await verifyDpopProof(await proof(b), expected, keys)).jkt, b.jkt);
  t.is((await verifyDpopProof(await proof(a), expected, keys)).jkt, a.jkt);
  t.is(keys.size, 2);
});

test('the thumbprint cache cannot be poisoned: a refused header is never stored, and a bad signature leaves the cached key as it was', async (t) => {
  const keys = createProofKeyCache();
  const key = await createDpopKey();
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const sign = (input: Buffer) => crypto.sign('sha256', input, { key: crypto.KeyObject.from(key.privateKey), dsaEncoding: 'ieee-p1363' });
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk };
  const cases: Array<[string, string, RegExp]> = [
    ['a private key in jwk', await proof(key, { header: { jwk: await exportJWK(privateKey) } }), /public key/],
    ['typ JWT', handSigned({ ...header, typ: 'JWT' }, sign), /typ must be dpop\+jwt/],
    ['alg none', `${b64({ ...header, alg: 'none' })}.${b64({ htm: 'GET' })}.AA`, /alg is not one of the accepted/],
    ['alg HS256', handSigned({ ...header, alg: 'HS256' }, sign), /alg is not one of the accepted/],
    ['a crit extension', handSigned({ ...header, crit: ['exp'] }, sign), /crit/],
    ['a jwk of another kind than alg', handSigned({ ...header, alg: 'RS256' }, sign), /not a usable public key/],
    ['no jwk', handSigned({ typ: 'dpop+jwt', alg: 'ES256' }, sign), /not a usable public key/],
    ['a header that is not JSON', `${Buffer.from('{"typ":').toString('base64url')}.${b64({})}.AA`, /header is not a JSON object/],
  ];
  for (const [name, dpop, message] of cases) {
    await refused(t, dpop, keys, message);
    t.is(keys.size, 0, name);
  }
  const forged = handSigned(header, () => Buffer.alloc(64, 1));
  await refused(t, forged, keys, /signature does not verify/);
  t.is(keys.size, 1, 'the header itself was valid: its own key is stored');
  t.is((await verifyDpopProof(handSigned(header, sign), expected, keys)).jkt, key.jkt);
});

test('an RSA key shorter than 2048 bits is refused', async (t) => {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
  const dpop = handSigned({ typ: 'dpop+jwt', alg: 'RS256', jwk: publicKey.export({ format: 'jwk' }) }, (input) => crypto.sign('sha256', input, privateKey));
  const keys = createProofKeyCache();
  await refused(t, dpop, keys, /shorter than 2048 bits/);
  t.is(keys.size, 0);
});

test('the same key under a header written differently is an entry of its own, with the same thumbprint', async (t) => {
  const keys = createProofKeyCache();
  const key = await createDpopKey();
  t.is((await verifyDpopProof(await proof(key), expected, keys)).jkt, key.jkt);
  t.is((await verifyDpopProof(await proof(key, { header: { typ: 'application/dpop+jwt' } }), expected, keys)).jkt, key.jkt);
  t.is(keys.size, 2);
});

test('the cache is bounded: past its size the least recently used key goes, and is read again when it returns', async (t) => {
  const keys = createProofKeyCache(2);
  const [a, b, c] = [await createDpopKey(), await createDpopKey(), await createDpopKey()];
  for (const key of [a, b, c, a]) t.is((await verifyDpopProof(await proof(key), expected, keys)).jkt, key.jkt);
  t.is(keys.size, 2);
});

test('a payload that is not a JSON object, or whose exp or nbf rule the proof out now, is refused', async (t) => {
  const keys = createProofKeyCache();
  const key = await createDpopKey();
  const sign = (input: Buffer) => crypto.sign('sha256', input, { key: crypto.KeyObject.from(key.privateKey), dsaEncoding: 'ieee-p1363' });
  const header = b64({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk });
  const signed = (payload: string) => `${header}.${payload}.${sign(Buffer.from(`${header}.${payload}`)).toString('base64url')}`;
  await refused(t, signed(b64(['GET'])), keys, /payload is not a JSON object/);
  await refused(t, signed(Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url')), keys, /payload is not a JSON object/);
  const now = Math.floor(Date.now() / 1000);
  await refused(t, handSigned({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk }, sign, { exp: now - 1 }), keys, /exp or nbf/);
  await refused(t, handSigned({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk }, sign, { nbf: now + 30 }), keys, /exp or nbf/);
  t.is((await verifyDpopProof(handSigned({ typ: 'dpop+jwt', alg: 'ES256', jwk: key.publicJwk }, sign, { exp: now + 30 }), expected, keys)).jkt, key.jkt);
});
