/**
 * The "Create account" form again after /register refused an account asked for from it: the authorization server,
 * which draws the pages of /auth/code and checks their client, draws it from a POST of the login form's parameters,
 * `prompt=create`, `register_error=<code>` and the typed username (never in a URL the browser sees, never the
 * password). Answers the page and its protective headers, or undefined when no 200 page came within timeoutMs.
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
