import test from 'ava';
import { REGISTER_ERROR_MESSAGES, REGISTERED_MESSAGE } from '@heroes/oauth-scopes';
import { addClient, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { escapeHtml } from '../../src/endpoints/code/login-page.ts';

// The sign-in page shows only its own words (CWE-451): outcome messages come from a fixed list of codes, never from the query.
let s: TestServer;
const PHISH = 'Security alert: your account is locked, call +1-555-0100';

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri: 'http://127.0.0.1:9/cb' });
});
test.after.always(() => s?.close());

async function page(extra: Record<string, string>): Promise<string> {
  const res = await fetch(`${s.url}/auth/code?${new URLSearchParams({ client_id: 'web', response_type: 'code', state: 's', ...extra })}`);
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  return res.text();
}

test('text in register_error, registered or any other query value never shows on the page', async (t) => {
  for (const extra of <Array<Record<string, string>>>[
    { prompt: 'create', register_error: PHISH },
    { register_error: PHISH },
    { registered: PHISH },
    { registered: PHISH, username: PHISH, error: PHISH, error_description: PHISH, notice: PHISH, message: PHISH, login_hint: PHISH },
    { prompt: 'create', registered: PHISH, error_description: PHISH },
    { prompt: 'create', register_error: 'toString' },
    { register_error: '__proto__', prompt: 'create' },
  ]) {
    const html = await page(extra);
    t.false(html.includes('Security alert'), JSON.stringify(extra));
    t.false(html.includes('555-0100'), JSON.stringify(extra));
    t.false(/role="alert"|role="status"/.test(html), `no alert or notice for ${JSON.stringify(extra)}`);
  }
});

test('a known code shows its own fixed words; registered=1 says the account was created, naming nothing', async (t) => {
  for (const [code, message] of Object.entries(REGISTER_ERROR_MESSAGES)) {
    const html = await page({ prompt: 'create', register_error: code });
    t.true(html.includes(`role="alert" id="register-error">${escapeHtml(message)}<`), code);
  }
  const created = await page({ registered: '1' });
  t.true(created.includes(`role="status">${escapeHtml(REGISTERED_MESSAGE)}<`));
  t.regex(created, /id="username"[^>]*value=""/, 'the username field is not filled from the query');
  t.false(/role="status"/.test(await page({ registered: 'alice' })), 'registered is a code too');
});

test('the create-account form states the password rule before any failure; a wrong password keeps the "Create account" link', async (t) => {
  const form = await page({ prompt: 'create' });
  t.regex(form, /aria-describedby="password-rule"/);
  t.regex(form, /id="password-rule">At least 8 characters, any you like; not a common password and not your username\.</);

  const query = { client_id: 'web', response_type: 'code', state: 's' };
  const res = await fetch(`${s.url}/auth/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:8888' },
    body: new URLSearchParams({ ...query, username: 'nobody-here', password: 'wrong password' }),
  });
  const html = await res.text();
  t.is(res.status, 200, html);
  t.regex(html, /role="alert"/);
  t.regex(html, /No account yet\? <a href="[^"]*prompt=create">Create account<\/a>/);
});

test('the create-account form comes back from a POST with prompt=create: the typed username kept (escaped), the fixed words of the code, never the password', async (t) => {
  const post = (body: Record<string, string>, origin = 'http://localhost:8888') => fetch(`${s.url}/auth/code`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
    body: new URLSearchParams({ client_id: 'web', response_type: 'code', state: 's', prompt: 'create', ...body }),
    redirect: 'manual',
  });
  const typed = 'zoë "the <b>bold</b>"';
  const res = await post({ username: typed, password: 'secret-long-password', register_error: 'username_taken' });
  const html = await res.text();
  t.is(res.status, 200, html);
  t.is(res.headers.get('location'), null, 'no code is granted');
  t.true(html.includes('<h1>Create account</h1>'));
  t.true(html.includes(`role="alert" id="register-error">${escapeHtml(REGISTER_ERROR_MESSAGES.username_taken)}<`));
  t.true(html.includes(`id="username" name="username" autocomplete="username" required autofocus value="${escapeHtml(typed)}"`));
  t.false(html.includes('<b>'), 'escaped');
  t.false(html.includes('secret-long-password'), 'the password is never put back');
  t.regex(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);

  const phish = await (await post({ username: 'someone', register_error: PHISH })).text();
  t.false(phish.includes('Security alert'));
  t.false(/role="alert"/.test(phish), 'an unknown code shows nothing');

  const crossSite = await post({ username: PHISH, register_error: 'username_taken' }, 'https://evil.example');
  t.is(crossSite.status, 403, 'another site cannot have the form show its text');
  t.false((await crossSite.text()).includes('Security alert'));
});
