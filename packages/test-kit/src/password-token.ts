/**
 * A token by the password grant (RFC 6749 section 4.3) for tests and the bench that need one to get on with: throws
 * unless 200. A confidential client authenticates with Basic, a public one by client_id. Tests of the grant's own
 * answers send their requests themselves.
 * Usage: const { access_token } = await passwordToken(edge, { id: 'app', secret: 's' }, 'bob', 'bob password')
 */
import { basic } from './basic-auth.ts';

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

export interface TokenOptions {
  scope?: string;
  /** Aborts the request (e.g. `AbortSignal.timeout(60_000)`: a hung server fails the test instead of stalling it). */
  signal?: AbortSignal;
}

export async function passwordToken(
  baseUrl: string, client: { id: string; secret?: string }, username: string, password: string, options: TokenOptions = {},
): Promise<TokenResponse> {
  const form = new URLSearchParams({ grant_type: 'password', username, password });
  if (options.scope !== undefined) form.set('scope', options.scope);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client.secret === undefined) form.set('client_id', client.id);
  else headers['authorization'] = basic(client.id, client.secret);
  const res = await fetch(`${baseUrl}/auth/token`, { method: 'POST', headers, body: form.toString(), ...(options.signal ? { signal: options.signal } : {}) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${text}`);
  return JSON.parse(text) as TokenResponse;
}
