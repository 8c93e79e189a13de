/**
 * DPoP (RFC 9449): tokens are bound to a WebCrypto P-256 key pair whose private key is non-extractable and kept in
 * IndexedDB for every tab of this origin, made anew at each sign-in (`dpop_jkt`, section 10) and dropped at
 * sign-out. A proof per request: `htm`, `htu` without query, a random `jti`, `iat`, `ath` for the hero API, and
 * the token endpoint's last `DPoP-Nonce` (section 8).
 */
const DB_NAME = 'heroes';
const STORE = 'dpop-keys';
const CURRENT = 'current';
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;

let nonce: string | undefined;
let cached: Promise<CryptoKeyPair | undefined> | undefined;

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = work(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

/** A new key pair for a new sign-in, stored in place of the last one. */
export async function newKeyPair(): Promise<CryptoKeyPair> {
  const pair = await crypto.subtle.generateKey(ALGORITHM, false, ['sign', 'verify']);
  await withStore('readwrite', (store) => store.put(pair, CURRENT));
  cached = Promise.resolve(pair);
  return pair;
}

/** The current key pair, if signed in since the browser's data was last cleared. */
export function currentKeyPair(): Promise<CryptoKeyPair | undefined> {
  cached ??= withStore<CryptoKeyPair | undefined>('readonly', (store) => store.get(CURRENT) as IDBRequest<CryptoKeyPair | undefined>);
  return cached;
}

export async function forgetKeyPair(): Promise<void> {
  cached = Promise.resolve(undefined);
  await withStore('readwrite', (store) => store.delete(CURRENT)).catch(() => undefined);
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const encode = (text: string) => new TextEncoder().encode(text);

async function sha256(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encode(text))));
}

async function publicJwk(pair: CryptoKeyPair): Promise<JsonWebKey> {
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  return { kty, crv, x, y };
}

/** RFC 7638 thumbprint of the public key: the members in lexical order, hashed. */
export async function thumbprint(pair: CryptoKeyPair): Promise<string> {
  const { crv, kty, x, y } = await publicJwk(pair);
  return sha256(JSON.stringify({ crv, kty, x, y }));
}

/** A proof for one request; `accessToken` for the hero API (its hash is `ath`). */
export async function proof(pair: CryptoKeyPair, method: string, url: string, accessToken?: string): Promise<string> {
  const htu = new URL(url, location.origin);
  htu.search = '';
  htu.hash = '';
  const header = { typ: 'dpop+jwt', alg: 'ES256', jwk: await publicJwk(pair) };
  const payload: Record<string, unknown> = { htm: method, htu: htu.href, jti: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000) };
  if (accessToken !== undefined) payload['ath'] = await sha256(accessToken);
  if (nonce !== undefined && accessToken === undefined) payload['nonce'] = nonce;
  const input = `${base64url(encode(JSON.stringify(header)))}.${base64url(encode(JSON.stringify(payload)))}`;
  // WebCrypto's ECDSA signature is r || s, the JWS form (RFC 7518 section 3.4).
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, encode(input));
  return `${input}.${base64url(new Uint8Array(signature))}`;
}

/** Remembers the token endpoint's `DPoP-Nonce` for the next proof. */
export function rememberNonce(response: Response): void {
  nonce = response.headers.get('DPoP-Nonce') ?? nonce;
}
