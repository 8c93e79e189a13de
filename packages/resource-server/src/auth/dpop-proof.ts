/**
 * A DPoP proof (RFC 9449 section 4.3) checked for one request at a hero route (failure → 401 invalid_dpop_proof): one
 * compact JWS of at most MAX_PROOF_LENGTH, signed by its header's key (dpop-proof-signature.ts); `jti` ≤ 256
 * characters, `htm` the method, `htu` the URL at PUBLIC_BASE_URL (normalized, no query or fragment), `iat` within the
 * window, `ath` the token's SHA-256. Replays are dpop-replay.ts's, the key match with `cnf.jkt` the guard's.
 */
import { createHash } from 'node:crypto';
import { DpopProofError } from './dpop-proof-error.ts';
import { cachedSignatureCheck, type ProofSignatureCheck } from './dpop-proof-signature.ts';

export { DpopProofError };

export const MAX_PROOF_LENGTH = 8192;
const MAX_JTI_LENGTH = 256;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface ProofExpectation {
  method: string;
  /** The request's URL at the public base URL, without query: `${PUBLIC_BASE_URL}${path}`. */
  url: string;
  accessToken: string;
  windowSeconds: number;
  nowSeconds?: number;
}

export interface VerifiedProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's key. */
  jkt: string;
  jti: string;
  iat: number;
}

/** The edge's signature check, its key cache shared by every route of the process. */
const processCheck = cachedSignatureCheck();

export async function verifyDpopProof(proof: string, expected: ProofExpectation, signature: ProofSignatureCheck = processCheck): Promise<VerifiedProof> {
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof)) throw new DpopProofError('the DPoP proof is not a compact JWS');
  const { jkt, payload } = await signature(proof);
  const { jti, htm, htu, iat, ath } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) throw new DpopProofError('the DPoP proof needs a jti of at most 256 characters');
  if (htm !== expected.method) throw new DpopProofError('the DPoP proof htm does not match the request method');
  if (typeof htu !== 'string' || !sameResource(htu, expected.url)) throw new DpopProofError('the DPoP proof htu does not match the request URL');
  const now = expected.nowSeconds ?? Date.now() / 1000;
  if (typeof iat !== 'number' || !Number.isFinite(iat) || Math.abs(now - iat) > expected.windowSeconds) {
    throw new DpopProofError(`the DPoP proof iat is not within ${expected.windowSeconds} seconds of the server's clock`);
  }
  if (ath !== accessTokenHash(expected.accessToken)) throw new DpopProofError('the DPoP proof ath does not match the access token');
  return { jkt, jti, iat };
}

/** `ath`: base64url(SHA-256(ASCII of the token)). */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** RFC 9449 section 4.3 step 9: both normalized, query and fragment ignored. */
function sameResource(htu: string, expected: string): boolean {
  const actual = URL.parse(htu);
  if (!actual || (actual.protocol !== 'https:' && actual.protocol !== 'http:')) return false;
  actual.search = '';
  actual.hash = '';
  return actual.href === new URL(expected).href;
}
