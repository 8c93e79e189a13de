/**
 * The edge's signature check (node:crypto, cached keys) answers as the library's (jose's jwtVerify): the same
 * thumbprint and claims for every accepted alg, a refusal for every proof the library refuses, and the reverse.
 */
import crypto from 'node:crypto';
import test from 'ava';
import { exportJWK, generateKeyPair } from 'jose';
import { accessTokenHash, createDpopKey, dpopProof, type DpopKey } from '@heroes/test-kit';
import { DpopProofError } from '../../src/auth/dpop-proof-error.ts';
import { cachedSignatureCheck, joseSignatureCheck, type ProofSignatureCheck, type SignedProof } from '../../src/auth/dpop-proof-signature.ts';

const HTU = 'https://api.example/heroes';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const proof = (key: DpopKey, header: Record<string, unknown> = {}) => dpopProof(key, { htm: 'GET', htu: HTU, accessToken: 't', header });

function handSigned(header: Record<string, unknown>, payload: Record<string, unknown> | string, sign: (input: Buffer) => Buffer): string {
  const input = `${b64(header)}.${typeof payload === 'string' ? payload : b64(payload)}`;
  return `${input}.${sign(Buffer.from(input)).toString('base64url')}`;
}

async function outcome(check: ProofSignatureCheck, dpop: string): Promise<SignedProof | 'refused'> {
  try {
    return await check(dpop);
  } catch (err) {
    if (err instanceof DpopProofError) return 'refused';
    throw err;
  }
}

test('both checks accept the same proofs with the same thumbprint and claims, and refuse the same ones', async (t) => {
  const keys = await Promise.all(['ES256', 'EdDSA', 'RS256', 'PS256'].map((alg) => createDpopKey(alg)));
  const es = keys[0]!;
  const esSign = (input: Buffer) => crypto.sign('sha256', input, { key: crypto.KeyObject.from(es.privateKey), dsaEncoding: 'ieee-p1363' });
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: es.publicJwk };
  const now = Math.floor(Date.now() / 1000);
  const claims = { htm: 'GET', htu: HTU, jti: 'j', iat: now, ath: accessTokenHash('t') };
  const short = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
  const valid = await proof(es);
  const tampered = `${valid.slice(0, -4)}${valid.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
  const cases: Array<[string, string, boolean]> = [
    ...(await Promise.all(keys.map(async (key): Promise<[string, string, boolean]> => [`${key.alg} proof`, await proof(key), true]))),
    ['typ application/dpop+jwt', await proof(es, { typ: 'application/dpop+jwt' }), true],
    ['exp ahead', handSigned(header, { ...claims, exp: now + 30 }, esSign), true],
    ['tampered signature', tampered, false],
    ['signed by another key than its jwk', await proof(keys[1]!, { alg: 'EdDSA', jwk: (await createDpopKey('EdDSA')).publicJwk }), false],
    ['typ JWT', await proof(es, { typ: 'JWT' }), false],
    ['alg none', `${b64({ ...header, alg: 'none' })}.${b64(claims)}.AA`, false],
    ['alg HS256', handSigned({ ...header, alg: 'HS256' }, claims, esSign), false],
    ['a private jwk', await proof(es, { jwk: await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey) }), false],
    ['a jwk of another kind than alg', handSigned({ ...header, alg: 'RS256' }, claims, esSign), false],
    ['a crit extension', handSigned({ ...header, crit: ['exp'] }, claims, esSign), false],
    ['a 1024-bit RSA key', handSigned({ typ: 'dpop+jwt', alg: 'RS256', jwk: short.publicKey.export({ format: 'jwk' }) }, claims, (input) => crypto.sign('sha256', input, short.privateKey)), false],
    ['a payload that is an array', handSigned(header, b64([1]), esSign), false],
    ['a payload that is not UTF-8', handSigned(header, Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url'), esSign), false],
    ['exp past', handSigned(header, { ...claims, exp: now - 1 }, esSign), false],
    ['nbf ahead', handSigned(header, { ...claims, nbf: now + 30 }, esSign), false],
  ];
  const cached = cachedSignatureCheck();
  for (const [name, dpop, accepted] of cases) {
    const library = await outcome(joseSignatureCheck, dpop);
    t.deepEqual(await outcome(cached, dpop), library, name);
    t.is(library !== 'refused', accepted, name);
  }
});
