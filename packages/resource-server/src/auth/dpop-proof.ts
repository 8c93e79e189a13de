/**
 * A DPoP proof (RFC 9449 section 4.3) checked for one request at a hero
 * route; the replay check (section 11.1) is dpop-replay.ts's, the key match
 * with the token (`cnf.jkt`) the guard's.
 * Signature checked with node:crypto, not jose's jwtVerify: same-run A/B, GET /heroes with DPoP XXX (docs/performance.md).
 *
 * Rules enforced here (any failure → DpopProofError, the guard's 401
 * invalid_dpop_proof):
 * - one compact JWS, at most MAX_PROOF_LENGTH characters;
 * - its header passes dpop-proof-key.ts (`typ` `dpop+jwt`, `alg` one of
 *   DPOP_SIGNING_ALGS, `jwk` a public key; read once per distinct header)
 *   and the signature verifies with that key;
 * - the payload is a JSON object; `jti` a string of at most 256
 *   characters, `htm` the request method, `htu` the request's URL at
 *   PUBLIC_BASE_URL (what clients call, proxy or not) without query and
 *   fragment, compared after RFC 3986 syntax- and scheme-based
 *   normalization (WHATWG URL parsing: case of scheme and host, default
 *   port, percent-encoding case, dot segments);
 * - `iat` within `windowSeconds` of now, either way (clock skew); `exp` and
 *   `nbf`, if present, numbers that do not rule the proof out now (RFC 7519);
 * - `ath` the base64url SHA-256 of the access token (section 4.2).
 * The result carries the key's RFC 7638 thumbprint.
 */
import { createHash } from 'node:crypto';
import { DpopProofError } from './dpop-proof-error.ts';
import { createProofKeyCache, decodeJsonObject, type ProofKeyCache } from './dpop-proof-key.ts';

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

/** The header cache of the process (one per process: proofs of a key repeat their header at every route). */
const processKeys = createProofKeyCache();

export async function verifyDpopProof(proof: string, expected: ProofExpectation, keys: ProofKeyCache = processKeys): Promise<VerifiedProof> {
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof)) throw new DpopProofError('the DPoP proof is not a compact JWS');
  const headerEnd = proof.indexOf('.');
  const payloadEnd = proof.lastIndexOf('.');
  const key = await keys.get(proof.slice(0, headerEnd));
  if (!key.verify(Buffer.from(proof.slice(0, payloadEnd), 'latin1'), Buffer.from(proof.slice(payloadEnd + 1), 'base64url'))) {
    throw new DpopProofError('invalid DPoP proof: the signature does not verify with its jwk');
  }
  const payload = decodeJsonObject(proof.slice(headerEnd + 1, payloadEnd), 'payload');
  const { jti, htm, htu, iat, ath, exp, nbf } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) throw new DpopProofError('the DPoP proof needs a jti of at most 256 characters');
  if (htm !== expected.method) throw new DpopProofError('the DPoP proof htm does not match the request method');
  if (typeof htu !== 'string' || !sameResource(htu, expected.url)) throw new DpopProofError('the DPoP proof htu does not match the request URL');
  const now = expected.nowSeconds ?? Date.now() / 1000;
  if (typeof iat !== 'number' || !Number.isFinite(iat) || Math.abs(now - iat) > expected.windowSeconds) {
    throw new DpopProofError(`the DPoP proof iat is not within ${expected.windowSeconds} seconds of the server's clock`);
  }
  if ((exp !== undefined && (typeof exp !== 'number' || exp <= now)) || (nbf !== undefined && (typeof nbf !== 'number' || nbf > now))) {
    throw new DpopProofError('the DPoP proof exp or nbf rules it out now');
  }
  if (ath !== accessTokenHash(expected.accessToken)) throw new DpopProofError('the DPoP proof ath does not match the access token');
  return { jkt: key.jkt, jti, iat };
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
