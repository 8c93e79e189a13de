/**
 * The "Create account" form again, after POST /register refused an account
 * asked for from it (register-from-page.ts). The authorization server draws
 * the pages of /auth/code and checks their client, so it draws this one
 * too: POST <AUTH_SERVER_URL>/auth/code with the login form's OAuth
 * parameters (return_to's query), `prompt=create`, `register_error=<code>`
 * and the username as typed.
 * - the typed text travels in a POST body between the two servers, never in
 *   a URL the browser sees (docs/oauth.md, the sign-in page shows only its
 *   own words); the password never travels;
 * - answers the page and its protective headers (CSP, no-store, no
 *   framing), or undefined when the authorization server did not answer a
 *   200 page within timeoutMs: the caller falls back to the redirect that
 *   carries only the code (the username then comes back empty).
 */
import { currentRequestId } from '@heroes/platform';
import type { RegisterErrorCode } from '@heroes/oauth-scopes';

/** The headers of the page that go to the browser (send-page.ts of the authorization server sets them). */
const PAGE_HEADERS = ['content-type', 'cache-control', 'pragma', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'content-security-policy'];

export interface FormAgainOptions {
  authServerUrl: string;
  timeoutMs: number;
}

export interface Page {
  html: string;
  headers: Record<string, string>;
}

/** Usage: `const page = await registrationFormAgain(options, '/auth/code?client_id=…', 'username_taken', 'bob')` */
export async function registrationFormAgain(options: FormAgainOptions, returnTo: string, code: RegisterErrorCode, username: string | undefined): Promise<Page | undefined> {
  const form = new URLSearchParams(returnTo.slice(returnTo.indexOf('?') + 1));
  for (const name of ['prompt', 'register_error', 'registered', 'username', 'password']) form.delete(name);
  form.set('prompt', 'create');
  form.set('register_error', code);
  if (username !== undefined) form.set('username', username);
  const requestId = currentRequestId();
  try {
    const res = await fetch(`${options.authServerUrl}/auth/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...(requestId ? { 'x-request-id': requestId } : {}) },
      body: form.toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const html = await res.text();
    if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/html')) return undefined;
    const headers: Record<string, string> = {};
    for (const name of PAGE_HEADERS) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    return { html, headers };
  } catch {
    return undefined;
  }
}
