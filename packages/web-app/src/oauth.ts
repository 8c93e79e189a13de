/**
 * Sign-in by the authorization-code flow with PKCE (RFC 7636) as a public client; sign-out by revoking the token
 * (RFC 7009). `state` and the verifier live in sessionStorage across the redirect, used once; the callback checks
 * `state`, then `iss` (RFC 9207 section 2.4: missing or another issuer is refused before any exchange); the token is
 * DPoP-bound (`dpop_jkt`, a proof on the exchange, resent with the server's nonce on `use_dpop_nonce`).
 */
import { CLIENT_ID, SCOPE, redirectUri } from './config.ts';
import { clearSession, saveSession, type Session } from './session.ts';
import { currentKeyPair, forgetKeyPair, newKeyPair, proof, rememberNonce, thumbprint } from './dpop.ts';

const PENDING = 'heroes.pending-sign-in';

interface Pending {
  state: string;
  verifier: string;
  /** Where to go back to after signing in. */
  returnTo: string;
}

function randomString(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** Sends the browser to the login form. */
export async function signIn(returnTo: string): Promise<void> {
  const pending: Pending = { state: randomString(16), verifier: randomString(32), returnTo };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: redirectUri(),
    scope: SCOPE,
    state: pending.state,
    code_challenge: await challengeOf(pending.verifier),
    code_challenge_method: 'S256',
    dpop_jkt: await thumbprint(await newKeyPair()),
  });
  location.assign(`/auth/code?${query}`);
}

export class SignInError extends Error {}

/** Handles /app/callback: returns where to go next, or throws a SignInError to show. */
export async function completeSignIn(url: URL): Promise<string> {
  const raw = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  const pending = raw ? (JSON.parse(raw) as Pending) : undefined;
  const params = url.searchParams;
  if (!pending || params.get('state') !== pending.state) throw new SignInError('This sign-in link is stale or was not started here. Sign in again.');
  const issuer = params.get('iss');
  if (issuer === null) throw new SignInError('The sign-in answer did not say which server sent it (no iss). Sign in again.');
  if (issuer !== location.origin) throw new SignInError(`The sign-in answer came from ${issuer}, not ${location.origin}. Sign in again.`);
  const error = params.get('error');
  if (error) throw new SignInError(`Sign-in failed: ${params.get('error_description') ?? error}`);
  const code = params.get('code');
  if (!code) throw new SignInError('Sign-in failed: no code in the answer.');

  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri(), code_verifier: pending.verifier, client_id: CLIENT_ID });
  const { res, body } = await requestToken(form);
  if (!res.ok || !body.access_token) throw new SignInError(`Sign-in failed: ${body.error_description ?? body.error ?? res.status}`);
  const session: Session = { accessToken: body.access_token, tokenType: body.token_type ?? 'bearer', expiresAt: Date.now() + (body.expires_in ?? 0) * 1000 };
  saveSession(session);
  return pending.returnTo;
}

interface TokenAnswer {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  error_description?: string;
  error?: string;
}

/** POST /auth/token with a DPoP proof; once more with the server's nonce when it asks for one (RFC 9449 section 8). */
async function requestToken(form: URLSearchParams, retried = false): Promise<{ res: Response; body: TokenAnswer }> {
  const pair = await currentKeyPair();
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (pair) headers['DPoP'] = await proof(pair, 'POST', '/auth/token');
  const res = await fetch('/auth/token', { method: 'POST', headers, body: form });
  rememberNonce(res);
  const body = (await res.json().catch(() => ({}))) as TokenAnswer;
  if (!retried && res.status === 400 && body.error === 'use_dpop_nonce') return requestToken(form, true);
  return { res, body };
}

/** Revokes the token (best effort: the session is gone locally either way). */
export async function signOut(session: Session | undefined): Promise<void> {
  clearSession();
  await forgetKeyPair();
  if (!session) return;
  await fetch('/auth/revoke', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: session.accessToken, token_type_hint: 'access_token', client_id: CLIENT_ID }),
  }).catch(() => undefined);
}
