/**
 * The key of a DPoP proof's header, read once per distinct header (a client's proofs repeat it verbatim) and kept in a
 * bounded LRU: `typ` dpop+jwt, `alg` in DPOP_SIGNING_ALGS, no `crit`, `jwk` a public key of that kind (RSA ≥ 2048 bits)
 * and its RFC 7638 thumbprint. An entry comes from its header alone and a refused one is never stored, so no request
 * can place a key under another header; every proof's signature is still checked.
 */
import { constants, KeyObject, verify as verifySignature } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, type JWK, type JWSHeaderParameters } from 'jose';
import { LRUCache } from 'lru-cache';
import { DPOP_SIGNING_ALGS } from '@heroes/oauth-scopes';
import { DpopProofError } from './dpop-proof-error.ts';

/** Distinct proof keys kept: one a client (or a browser session) in use at once. */
export const PROOF_KEY_CACHE_MAX = 1000;
const MIN_RSA_BITS = 2048;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface ProofKey {
  alg: string;
  /** RFC 7638 SHA-256 thumbprint of the key. */
  jkt: string;
  /** True when `signature` (the JWS signature's bytes) signs `input` (the ASCII of `header.payload`) with this key. */
  verify(input: Buffer, signature: Buffer): boolean;
}

export interface ProofKeyCache {
  get(headerSegment: string): ProofKey | Promise<ProofKey>;
  readonly size: number;
}

export function createProofKeyCache(max = PROOF_KEY_CACHE_MAX): ProofKeyCache {
  const cache = new LRUCache<string, ProofKey>({ max });
  return {
    get(headerSegment) {
      return cache.get(headerSegment) ?? readKey(headerSegment).then((key) => {
        cache.set(headerSegment, key);
        return key;
      });
    },
    get size() {
      return cache.size;
    },
  };
}

/** The checks of the header, the key import and the thumbprint: once per distinct header. */
async function readKey(segment: string): Promise<ProofKey> {
  const header = decodeJsonObject(segment, 'header');
  if (typeof header['typ'] !== 'string' || normalizeTyp(header['typ']) !== 'application/dpop+jwt') throw invalid('its typ must be dpop+jwt');
  const alg = header['alg'];
  if (typeof alg !== 'string' || !DPOP_SIGNING_ALGS.includes(alg)) throw invalid('its alg is not one of the accepted algorithms');
  if (header['crit'] !== undefined) throw invalid('its crit names an extension this server does not understand');
  let key: KeyObject;
  let jkt: string;
  try {
    key = KeyObject.from(await EmbeddedJWK(header as JWSHeaderParameters));
    jkt = await calculateJwkThumbprint(header['jwk'] as JWK);
  } catch (err) {
    // whatever jose or WebCrypto refuse in a key the client sent is the client's error
    throw invalid(`its jwk is not a usable public key (${err instanceof Error ? err.message : String(err)})`);
  }
  if (key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) throw invalid(`its RSA key is shorter than ${MIN_RSA_BITS} bits`);
  return { alg, jkt, verify: verifierFor(alg, key) };
}

/** RFC 7518 section 3 (ES256, RS256, PS256) and RFC 8037 / RFC 9864 (EdDSA, Ed25519), with node:crypto. */
function verifierFor(alg: string, key: KeyObject): ProofKey['verify'] {
  const attempt = (check: () => boolean): boolean => {
    try {
      return check();
    } catch {
      return false; // a signature OpenSSL cannot even parse does not verify
    }
  };
  switch (alg) {
    case 'ES256':
      return (input, signature) => signature.length === 64 && attempt(() => verifySignature('sha256', input, { key, dsaEncoding: 'ieee-p1363' }, signature));
    case 'PS256':
      return (input, signature) => attempt(() => verifySignature('sha256', input, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, signature));
    case 'RS256':
      return (input, signature) => attempt(() => verifySignature('sha256', input, key, signature));
    case 'EdDSA':
    case 'Ed25519':
      return (input, signature) => attempt(() => verifySignature(null, input, key, signature));
    default:
      throw invalid('its alg is not one of the accepted algorithms');
  }
}

/** A base64url segment holding a JSON object (strict UTF-8, RFC 7515 section 5.2). */
export function decodeJsonObject(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(Buffer.from(segment, 'base64url')));
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`its ${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

/** RFC 7515 section 4.1.9: `typ` may omit the `application/` prefix; media types compare case-insensitively. */
function normalizeTyp(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.includes('/') ? lower : `application/${lower}`;
}

function invalid(problem: string): DpopProofError {
  return new DpopProofError(`invalid DPoP proof: ${problem}`);
}
