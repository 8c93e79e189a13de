/**
 * The hero API (docs/heroes-api.md) with the session's bearer token. A 401
 * means the token expired or was revoked: SessionExpiredError, and the app
 * asks to sign in again.
 */
import { clearSession, loadSession } from './session.ts';

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

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const session = loadSession();
  if (!session) throw new SessionExpiredError();
  const headers: Record<string, string> = { Authorization: `Bearer ${session.accessToken}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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
  list: () => call<Hero[]>('GET', '/heroes'),
  top: (count: number) => call<Hero[]>('GET', `/heroes?limit=${count}`),
  search: (term: string) => call<Hero[]>('GET', `/heroes?name=${encodeURIComponent(term)}`),
  get: (id: number) => call<Hero>('GET', `/heroes/${id}`),
  add: (name: string) => call<Hero>('POST', '/heroes', { name }),
  rename: (id: number, name: string) => call<Hero>('PUT', `/heroes/${id}`, { name }),
  remove: (id: number) => call<void>('DELETE', `/heroes/${id}`),
};
