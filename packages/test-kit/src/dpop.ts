/**
 * DPoP (RFC 9449) proofs for tests and the bench: a key pair and proofs signed with it, every claim overridable so
 * a test can break one at a time.
 * Usage: await dpopProof(await createDpopKey(), { htm: 'GET', htu: `${base}/heroes`, accessToken })
 */
import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

export interface DpopKey {
  alg: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  /** RFC 7638 SHA-256 thumbprint of the public key (`cnf.jkt`, `dpop_jkt`). */
  jkt: string;
}

export interface ProofClaims {
  htm: string;
  htu: string;
  /** Hashed into `ath` (section 4.2); omit for token requests. */
  accessToken?: string;
  /** `ath` as given, instead of the hash of accessToken. */
  ath?: string;
  nonce?: string;
  /** Seconds since the epoch; default now. */
  iat?: number;
  jti?: string;
  /** Header overrides (typ, alg, jwk), e.g. `{ typ: 'JWT' }`. */
  header?: Record<string, unknown>;
}

export async function createDpopKey(alg = 'ES256'): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return { alg, privateKey, publicKey, publicJwk, jkt: await calculateJwkThumbprint(publicJwk) };
}

/** `ath`: base64url(SHA-256(access token)). */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest('base64url');
}

export async function dpopProof(key: DpopKey, claims: ProofClaims): Promise<string> {
  const payload: Record<string, unknown> = { htm: claims.htm, htu: claims.htu, jti: claims.jti ?? randomUUID() };
  const ath = claims.ath ?? (claims.accessToken === undefined ? undefined : accessTokenHash(claims.accessToken));
  if (ath !== undefined) payload['ath'] = ath;
  if (claims.nonce !== undefined) payload['nonce'] = claims.nonce;
  return new SignJWT(payload)
    .setProtectedHeader({ typ: 'dpop+jwt', alg: key.alg, jwk: key.publicJwk, ...claims.header } as Parameters<SignJWT['setProtectedHeader']>[0])
    .setIssuedAt(claims.iat ?? Math.floor(Date.now() / 1000))
    .sign(key.privateKey);
}
