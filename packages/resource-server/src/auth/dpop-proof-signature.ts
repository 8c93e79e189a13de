/**
 * A DPoP proof's signature by the key in its header, and that key's RFC 7638 thumbprint: the library's check (jose)
 * and the one the edge uses, node:crypto with the header read once per distinct header (dpop-proof-key.ts), which
 * answer alike (test/guard/dpop-proof-signature.test.ts). Why the fast path: same-run A/B, an ES256 proof's whole
 * check costs 260–520 µs of CPU through jose, 70–90 µs through this (docs/performance.md, DPoP).
 */
import { calculateJwkThumbprint, EmbeddedJWK, errors, jwtVerify, type JWK } from 'jose';
import { DPOP_SIGNING_ALGS } from '@heroes/oauth-scopes';
import { DpopProofError } from './dpop-proof-error.ts';
import { createProofKeyCache, decodeJsonObject, type ProofKeyCache } from './dpop-proof-key.ts';

export interface SignedProof {
  /** RFC 7638 SHA-256 thumbprint of the header's `jwk`. */
  jkt: string;
  /** The claims, a JSON object whose `exp` and `nbf`, if any, do not rule the proof out now. */
  payload: Record<string, unknown>;
}

/** Resolves when `proof` (a compact JWS) is signed by its header's key; rejects with DpopProofError otherwise. */
export type ProofSignatureCheck = (proof: string) => Promise<SignedProof>;

/** The edge's check: the key cache, then node:crypto. */
export function cachedSignatureCheck(keys: ProofKeyCache = createProofKeyCache()): ProofSignatureCheck {
  return async (proof) => {
    const headerEnd = proof.indexOf('.');
    const payloadEnd = proof.lastIndexOf('.');
    const key = await keys.get(proof.slice(0, headerEnd));
    if (!key.verify(Buffer.from(proof.slice(0, payloadEnd), 'latin1'), Buffer.from(proof.slice(payloadEnd + 1), 'base64url'))) {
      throw new DpopProofError('invalid DPoP proof: the signature does not verify with its jwk');
    }
    const payload = decodeJsonObject(proof.slice(headerEnd + 1, payloadEnd), 'payload');
    const now = Math.floor(Date.now() / 1000); // as jose's exp and nbf checks
    const { exp, nbf } = payload;
    if ((exp !== undefined && (typeof exp !== 'number' || exp <= now)) || (nbf !== undefined && (typeof nbf !== 'number' || nbf > now))) {
      throw new DpopProofError('invalid DPoP proof: its exp or nbf rules it out now');
    }
    return { jkt: key.jkt, payload };
  };
}

/** The library's check (jose's jwtVerify with the embedded key): the reference the edge's check answers like. */
export const joseSignatureCheck: ProofSignatureCheck = async (proof) => {
  try {
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [...DPOP_SIGNING_ALGS] });
    return { jkt: await calculateJwkThumbprint(protectedHeader.jwk as JWK), payload: payload as Record<string, unknown> };
  } catch (err) {
    // whatever jose refuses in what the client sent (a TypeError for a short RSA key, too) is the client's error
    throw new DpopProofError(`invalid DPoP proof: ${err instanceof Error ? problem(err) : String(err)}`);
  }
};

function problem(err: Error): string {
  if (err instanceof errors.JOSEAlgNotAllowed) return 'its alg is not one of the accepted algorithms';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not verify with its jwk';
  if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'typ') return 'its typ must be dpop+jwt';
  return err.message;
}
