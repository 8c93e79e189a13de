/**
 * The hero API with the session's token (docs/heroes-api.md): DPoP with a fresh proof per request, or Bearer. A 401
 * is SessionExpiredError (sign in again). A create carries its own Idempotency-Key and is resent with it (at most
 * CREATE_ATTEMPTS) after no answer, a proxy's 502/504 or 409 `idempotency_key_in_use`: the hero is made once.
 */
import { clearSession, loadSession } from './session.ts';
import { currentKeyPair, proof } from './dpop.ts';

export interface Hero {
  id: number;
  name: string;
}

export class SessionExpiredError extends Error {
  constructor() {
    super('Your session has expired. Sign in again.');
  }
}

export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

/** What the user reads for a refusal: the app's own words for the answers it expects. */
function refusal(status: number, problem: { error?: string }): string {
  if (status === 409) return 'A hero with this name already exists.';
  if (status === 404) return 'No such hero: it may have been deleted.';
  if (status === 429) return 'Too many changes at once: wait a moment and try again.';
  if (status === 503) return 'The service is busy or restarting: try again in a moment.';
  return `The server refused: ${problem.error ?? status}`;
}

const CREATE_ATTEMPTS = 3;

/** A new Idempotency-Key: an RFC 8941 string of 32 random hex digits (getRandomValues: also outside secure contexts). */
function newIdempotencyKey(): string {
  return `"${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')}"`;
}

/** Whether a create may be sent again with its key: no answer, a proxy's 502/504, or the first attempt still running (409 with Retry-After). */
function worthRepeating(res: Response | undefined): boolean {
  return !res || res.status === 502 || res.status === 504 || (res.status === 409 && res.headers.has('Retry-After'));
}

async function create<T>(path: string, body: unknown): Promise<T> {
  const key = newIdempotencyKey();
  for (let attempt = 1; ; attempt++) {
    const res = await call('POST', path, body, key).catch((err: unknown) => {
      if (err instanceof TypeError && attempt < CREATE_ATTEMPTS) return undefined; // network failure: no answer
      throw err;
    });
    if (res && (attempt >= CREATE_ATTEMPTS || !worthRepeating(res))) return answer<T>(res);
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  return answer<T>(await call(method, path, body));
}

async function call(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<Response> {
  const session = loadSession();
  if (!session) throw new SessionExpiredError();
  const headers: Record<string, string> = { Authorization: `Bearer ${session.accessToken}` };
  if (session.tokenType.toLowerCase() === 'dpop') {
    const pair = await currentKeyPair();
    if (!pair) throw new SessionExpiredError();
    headers['Authorization'] = `DPoP ${session.accessToken}`;
    headers['DPoP'] = await proof(pair, method, path, session.accessToken);
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  return fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function answer<T>(res: Response): Promise<T> {
  if (res.status === 401) {
    clearSession();
    throw new SessionExpiredError();
  }
  if (!res.ok) {
    const problem = (await res.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(refusal(res.status, problem), res.status);
  }
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export const heroesApi = {
  list: () => request<Hero[]>('GET', '/heroes'),
  top: (count: number) => request<Hero[]>('GET', `/heroes?limit=${count}`),
  search: (term: string) => request<Hero[]>('GET', `/heroes?name=${encodeURIComponent(term)}`),
  get: (id: number) => request<Hero>('GET', `/heroes/${id}`),
  add: (name: string) => create<Hero>('/heroes', { name }),
  rename: (id: number, name: string) => request<Hero>('PUT', `/heroes/${id}`, { name }),
  remove: (id: number) => request<void>('DELETE', `/heroes/${id}`),
};
