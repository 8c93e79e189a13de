/** OAuth helpers for tests against the real authorization server. */
import bcrypt from 'bcrypt';
import type { PrismaClient } from '@heroes/db';
import { basic } from '@heroes/test-kit';

export async function addClient(db: PrismaClient, id: string, secret: string | null, allowedScopes: string[] = []) {
  await db.oAuthClient.create({
    data: { id, hashedSecret: secret === null ? null : await bcrypt.hash(secret, 4), allowedScopes },
  });
}

/** `Authorization: Basic` for a client id and secret (RFC 6749 section 2.3.1), from the shared test kit. */
export { basic };

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

export async function passwordToken(
  baseUrl: string, client: { id: string; secret: string }, username: string, password: string, scope?: string,
): Promise<TokenResponse> {
  const form = new URLSearchParams({ grant_type: 'password', username, password });
  if (scope) form.set('scope', scope);
  const res = await fetch(`${baseUrl}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const body = (await res.json()) as TokenResponse;
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

export async function revoke(baseUrl: string, client: { id: string; secret: string }, token: string): Promise<number> {
  const res = await fetch(`${baseUrl}/auth/revoke`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
  });
  await res.arrayBuffer();
  return res.status;
}
