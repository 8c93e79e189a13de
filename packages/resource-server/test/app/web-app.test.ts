/**
 * The web app at /app (docs/web-app.md) end to end in real Chromium against both servers: sign in by the code flow
 * with PKCE (a wrong password first), dashboard, list, add, rename, search, delete, sign out (token revoked); its
 * tokens are DPoP-bound to a non-extractable key.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { REGISTERED_MESSAGE } from '@heroes/oauth-scopes';
import { createDpopKey, dpopProof, waitFor } from '@heroes/test-kit';
import { signIn, startAppInBrowser, WAIT, type AppStack, type AppInBrowser } from '../_helpers/web-app.ts';

let app: AppInBrowser;
let stack: AppStack;
let browser: Browser;

test.before(async () => {
  app = await startAppInBrowser('tour', 'tour password');
  ({ stack, browser } = app);
});
test.after.always(() => app?.close());

/** Rows of the stack's database, read directly (the app's own token cannot be used from here: it is DPoP-bound). */
async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: stack.database.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

test.serial('the app signs in, manages heroes and signs out', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(String(error)));
  page.on('response', (res) => { if (res.status() >= 400) t.log(`${res.request().method()} ${res.url()} → ${res.status()}`); });
  const createKeys: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/heroes') createKeys.push(req.headers()['idempotency-key'] ?? '');
  });
  await page.goto(`${stack.url}/app/`);

  // A wrong password: the login form says so and stays.
  await signIn(page, 'tour', 'wrong password');
  await page.getByRole('alert').filter({ hasText: /username or password|invalid/i }).waitFor(WAIT);
  t.true(page.url().includes('/auth/code'));
  await page.getByLabel('Password').fill('tour password');
  await page.getByRole('button', { name: 'Sign in' }).click();

  // Back in the app: the dashboard, empty at first.
  await page.getByRole('heading', { name: 'Top Heroes' }).waitFor(WAIT);
  t.regex(page.url(), /\/app\/dashboard$/);
  const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem('heroes.session') ?? '{}').accessToken as string);
  t.truthy(token);
  const tokenHash = createHash('sha256').update(token).digest('hex');

  // Add heroes on the list page, empty at first.
  await page.getByRole('link', { name: 'Heroes' }).click();
  await page.getByText('No heroes yet: add the first one above.').waitFor(WAIT);
  for (const name of ['Mr. Nice', 'Narco', 'Bombasto', 'Celeritas', 'Magneta']) {
    await page.getByLabel('Hero name').fill(name);
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('link', { name, exact: true }).waitFor(WAIT);
  }
  const stored = await query<{ name: string }>('SELECT name FROM heroes ORDER BY id');
  t.deepEqual(stored.map((hero) => hero.name), ['Mr. Nice', 'Narco', 'Bombasto', 'Celeritas', 'Magneta']);
  // Each create carried an Idempotency-Key of its own (a quoted string, RFC 8941).
  t.is(createKeys.length, 5);
  for (const key of createKeys) t.regex(key, /^"[0-9a-f]{32}"$/);
  t.is(new Set(createKeys).size, 5);

  // A duplicate name is refused with a message.
  await page.getByLabel('Hero name').fill('Narco');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('alert').filter({ hasText: 'already exists' }).waitFor(WAIT);

  // Rename on the detail page.
  await page.getByRole('link', { name: 'Bombasto', exact: true }).click();
  await page.getByRole('heading', { name: 'BOMBASTO Details' }).waitFor(WAIT);
  await page.getByLabel('Hero name').fill('Bombastic');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: 'Bombastic', exact: true }).waitFor(WAIT);

  // Delete asks once more: "Cancel" keeps the hero, "Yes, delete" deletes it.
  await page.getByRole('button', { name: 'Delete Celeritas' }).click();
  await page.getByRole('button', { name: 'Keep Celeritas' }).click();
  await page.getByRole('button', { name: 'Delete Celeritas' }).click();
  await page.getByRole('button', { name: 'Yes, delete Celeritas' }).click();
  await page.getByRole('link', { name: 'Celeritas', exact: true }).waitFor({ state: 'detached', ...WAIT });
  t.is(await page.getByRole('button', { name: /^Delete / }).count(), 4);
  t.false((await query<{ name: string }>('SELECT name FROM heroes')).some((hero) => hero.name === 'Celeritas'));

  // A hero that is gone: the app says so in its own words.
  await page.goto(`${stack.url}/app/heroes/999999`);
  await page.getByRole('heading', { name: 'Hero not found' }).waitFor(WAIT);
  await page.getByText('No hero has the id 999999').waitFor(WAIT);
  await page.getByRole('link', { name: 'Back to the heroes' }).click();
  await page.getByRole('heading', { name: 'Heroes', exact: true }).waitFor(WAIT);

  // The dashboard shows the top heroes; search as you type.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.locator('.top-heroes a').first().waitFor(WAIT);
  t.deepEqual(await page.locator('.top-heroes a').allInnerTexts(), ['Mr. Nice', 'Narco', 'Bombastic', 'Magneta']);
  await page.getByLabel('Search').pressSequentially('ma', { delay: 50 });
  const results = page.getByRole('list', { name: 'Matching heroes' });
  await results.getByRole('link', { name: 'Magneta' }).waitFor(WAIT);
  await page.getByLabel('Search').pressSequentially('g', { delay: 50 });
  await results.getByRole('link', { name: 'Bombastic' }).waitFor({ state: 'detached', ...WAIT });
  t.deepEqual(await results.getByRole('link').allInnerTexts(), ['Magneta']);
  await page.getByLabel('Search').pressSequentially('zzz', { delay: 50 });
  await page.getByText('No hero matches “magzzz”.').waitFor(WAIT);
  await page.getByLabel('Search').fill('');
  await page.getByLabel('Search').pressSequentially('mag', { delay: 50 });
  await results.getByRole('link', { name: 'Magneta' }).waitFor(WAIT);
  if (process.env['SCREENSHOT_DIR']) await page.screenshot({ path: `${process.env['SCREENSHOT_DIR']}/app.png` });
  await results.getByRole('link', { name: 'Magneta' }).click();
  await page.getByRole('heading', { name: 'MAGNETA Details' }).waitFor(WAIT);

  // Sign out revokes the token.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
  // The edge learns of a revocation from the authorization server's notice (PostgreSQL
  // LISTEN/NOTIFY, docs/oauth.md), a moment after the revoke answer: wait for it, never assume it came first.
  await waitFor(async () => (await query('SELECT 1 FROM access_tokens WHERE id = $1', [tokenHash])).length === 0, { message: 'the token was revoked' });
  t.deepEqual(failures, []);
  await page.close();
});

test.serial('the app\'s token is DPoP-bound to a non-extractable key: copied out of the page it is useless', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${stack.url}/app/`);
  await signIn(page, 'tour', 'tour password');
  await page.getByRole('heading', { name: 'Top Heroes' }).waitFor(WAIT);
  const session = await page.evaluate(() => JSON.parse(sessionStorage.getItem('heroes.session') ?? '{}') as { accessToken: string; tokenType: string });
  t.is(session.tokenType, 'DPoP');

  // The key: in IndexedDB, its private half not extractable, not even by the page.
  // (Run in the page: plain JavaScript, the DOM types are not this file's.)
  const key = await page.evaluate(`(async () => {
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open('heroes');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const pair = await new Promise((resolve, reject) => {
      const get = db.transaction('dpop-keys').objectStore('dpop-keys').get('current');
      get.onsuccess = () => resolve(get.result);
      get.onerror = () => reject(get.error);
    });
    const exported = await crypto.subtle.exportKey('jwk', pair.privateKey).then(() => 'exported', (err) => err.name);
    return { extractable: pair.privateKey.extractable, algorithm: pair.privateKey.algorithm.namedCurve, exported };
  })()`);
  t.deepEqual(key, { extractable: false, algorithm: 'P-256', exported: 'InvalidAccessError' });

  // Elsewhere: as a bearer token, or with a proof of another key, the copied token is refused.
  const asBearer = await fetch(`${stack.url}/heroes`, { headers: { authorization: `Bearer ${session.accessToken}` } });
  t.is(asBearer.status, 401);
  t.regex(asBearer.headers.get('www-authenticate') ?? '', /^DPoP .*error="invalid_token"/);
  const thief = await createDpopKey();
  const withOtherKey = await fetch(`${stack.url}/heroes`, {
    headers: { authorization: `DPoP ${session.accessToken}`, dpop: await dpopProof(thief, { htm: 'GET', htu: `${stack.url}/heroes`, accessToken: session.accessToken }) },
  });
  t.is(withOtherKey.status, 401);
  t.regex(withOtherKey.headers.get('www-authenticate') ?? '', /error="invalid_dpop_proof"/);

  // In the page, with its key, the same token works.
  await page.getByRole('link', { name: 'Heroes' }).click();
  await page.getByLabel('Hero name').fill('Bound');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('link', { name: 'Bound', exact: true }).waitFor(WAIT);
  await page.close();
});

test.serial('/ links the app, the docs and the OpenAPI document; every page has its icon', async (t) => {
  const page = await browser.newPage();
  const missing: string[] = [];
  page.on('response', (res) => { if (res.status() >= 400) missing.push(`${res.status()} ${res.url()}`); });
  await page.goto(`${stack.url}/`);
  for (const href of ['/app', '/docs', '/openapi.json']) t.is(await page.getByRole('link', { name: href, exact: true }).getAttribute('href'), href);
  await page.getByRole('link', { name: '/app', exact: true }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
  const icon = await fetch(`${stack.url}/favicon.ico`);
  t.is(icon.status, 200);
  t.is(icon.headers.get('content-type'), 'image/svg+xml');
  t.regex(await icon.text(), /^<svg /);
  t.deepEqual(missing, []);
  await page.close();
});

test.serial('a stale callback is refused with a message, not a crash', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${stack.url}/app/callback?code=forged&state=forged`);
  await page.getByRole('alert').filter({ hasText: 'stale' }).waitFor(WAIT);
  t.true(await page.getByRole('button', { name: 'Sign in' }).isVisible());
  await page.close();
});

test.serial('a sign-in answer without iss, or from another issuer, is refused before its code is exchanged (RFC 9207 2.4)', async (t) => {
  for (const iss of [undefined, 'https://evil.example', `${stack.url}/`]) {
    const page = await browser.newPage();
    const exchanges: string[] = [];
    page.on('request', (req) => { if (req.url().includes('/auth/token')) exchanges.push(req.url()); });
    await page.goto(`${stack.url}/app/`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/auth\/code\?/, WAIT);
    // A real answer for this very sign-in (its state and PKCE challenge), then altered on its way back.
    const login = await fetch(`${stack.url}/auth/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...Object.fromEntries(new URL(page.url()).searchParams), username: 'tour', password: 'tour password' }),
      redirect: 'manual',
    });
    const answer = new URL(login.headers.get('location') ?? 'about:blank');
    t.is(answer.searchParams.get('iss'), stack.url, 'the server names itself');
    t.truthy(answer.searchParams.get('code'));
    if (iss === undefined) answer.searchParams.delete('iss');
    else answer.searchParams.set('iss', iss);
    await page.goto(answer.href);
    await page.getByRole('alert').filter({ hasText: iss === undefined ? 'did not say which server sent it' : `came from ${iss}` }).waitFor(WAIT);
    t.true(await page.getByRole('button', { name: 'Sign in' }).isVisible());
    t.deepEqual(exchanges, [], `no code exchanged for iss=${String(iss)}`);
    t.is(await page.evaluate(() => sessionStorage.getItem('heroes.session')), null);
    await page.close();
  }
});

test.serial('every /app path serves the app; its assets are served', async (t) => {
  const res = await fetch(`${stack.url}/app/heroes/12`);
  t.is(res.status, 200);
  const html = await res.text();
  t.regex(html, /<title>Tour of Heroes<\/title>/);
  const script = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  t.truthy(script);
  const asset = await fetch(`${stack.url}${script}`);
  t.is(asset.status, 200);
  t.regex(asset.headers.get('content-type') ?? '', /javascript/);
  t.is((await fetch(`${stack.url}/app/assets/missing.js`)).status, 404);
});

test.serial('signed out, the navigation and "Sign out" are hidden', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${stack.url}/app/`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
  t.false(await page.locator('nav').isVisible());
  t.false(await page.getByRole('button', { name: 'Sign out' }).isVisible());
  t.false(await page.getByRole('link', { name: 'Heroes' }).isVisible());
  await page.close();
});

test.serial('the app opened on another host name moves to PUBLIC_BASE_URL, and signing in works there', async (t) => {
  const page = await browser.newPage();
  const elsewhere = stack.url.replace('127.0.0.1', 'localhost');
  const res = await fetch(`${elsewhere}/app/heroes?x=1`, { redirect: 'manual' });
  t.is(res.status, 302);
  t.is(res.headers.get('location'), `${stack.url}/app/heroes?x=1`);
  await page.goto(`${elsewhere}/app/heroes`);
  t.is(page.url(), `${stack.url}/app/heroes`);
  await signIn(page, 'tour', 'tour password');
  await page.getByRole('heading', { name: 'Heroes', exact: true }).or(page.getByRole('heading', { name: 'Top Heroes' })).first().waitFor(WAIT);
  t.true(page.url().startsWith(`${stack.url}/app/`));
  await page.close();
});

test.serial('"Create account" on the login page registers a user, then signing in with it works', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${stack.url}/app/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Create account' }).waitFor(WAIT);

  // A taken username: the form again, saying so, with the username as typed (never through the URL).
  await page.getByLabel('Username').fill('Tour');
  await page.getByLabel('Password').fill('another-long-password');
  const [answer] = await Promise.all([
    page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/register'),
    page.getByRole('button', { name: 'Create account' }).click(),
  ]);
  t.is(answer.status(), 409);
  await page.getByRole('alert').filter({ hasText: 'That username is taken.' }).waitFor(WAIT);
  t.is(await page.getByLabel('Username').inputValue(), 'Tour', 'the username is kept');
  t.is(await page.getByLabel('Password').inputValue(), '', 'the password is not');
  t.false(decodeURIComponent(page.url()).includes('Tour'), 'nothing typed travels in the URL');

  // A refused password: the form again, the username still there; then it goes through from this form.
  await page.getByLabel('Password').fill('password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('alert').filter({ hasText: 'That password cannot be used' }).waitFor(WAIT);
  t.is(await page.getByLabel('Username').inputValue(), 'Tour');

  await page.getByLabel('Username').fill('newbie');
  await page.getByLabel('Password').fill('newbie-long-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('status').filter({ hasText: REGISTERED_MESSAGE }).waitFor(WAIT);
  t.is(await page.getByLabel('Username').inputValue(), '', 'nothing from the query is put on the page');
  await page.getByLabel('Username').fill('Newbie');
  await page.getByLabel('Password').fill('newbie-long-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Top Heroes' }).waitFor(WAIT);
  await page.close();
});

test.serial('a refused account is answered with the create-account form itself: its status, the username escaped, fixed words only, nothing from the query', async (t) => {
  const returnTo = `/auth/code?${new URLSearchParams({ client_id: 'tour-of-heroes', redirect_uri: `${stack.url}/app/callback`, response_type: 'code', state: 's', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`;
  const typed = '"><b>Security alert: call +1-555-0100</b> '; // refused: a trailing space
  const post = (body: Record<string, string>, query: Record<string, string> = {}) => fetch(`${stack.url}/register?${new URLSearchParams({ return_to: `${returnTo}${new URLSearchParams(query).size ? `&${new URLSearchParams(query)}` : ''}` })}`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.url }, body: new URLSearchParams(body), redirect: 'manual',
  });
  const taken = await post({ username: 'tour', password: 'another-long-password' });
  const takenHtml = await taken.text();
  t.is(taken.status, 409);
  t.regex(taken.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(taken.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  t.is(taken.headers.get('cache-control'), 'no-store');
  t.regex(takenHtml, /role="alert" id="register-error">That username is taken\.</);
  t.regex(takenHtml, /id="username"[^>]*value="tour"/);

  const invalid = await post({ username: typed, password: 'another-long-password' }, { register_error: 'Security alert', username: 'Security alert' });
  const invalidHtml = await invalid.text();
  t.is(invalid.status, 400);
  t.true(invalidHtml.includes('value="&#34;&#62;&#60;b&#62;Security alert: call +1-555-0100&#60;/b&#62; "'), 'what was typed, escaped, in the field');
  t.false(invalidHtml.includes('<b>'));
  t.is(invalidHtml.match(/Security alert/g)?.length, 1, 'only in the field: never from the query, never as a message');
  t.regex(invalidHtml, /role="alert" id="register-error">That username cannot be used/);
  t.false(invalidHtml.includes('another-long-password'), 'the password never comes back');

  const created = await post({ username: 'kept-newbie', password: 'kept-newbie-password' });
  t.is(created.status, 303, 'success keeps the redirect (PRG)');
  t.regex(created.headers.get('location') ?? '', /&registered=1$/);
});

test.serial('the create-account form refuses other sites and foreign return addresses, as the login form does', async (t) => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const body = 'username=mallory-victim&password=mallory-long-password';
  const crossSite = await fetch(`${stack.url}/register?return_to=${encodeURIComponent('/auth/code?client_id=tour-of-heroes')}`, {
    method: 'POST', headers: { ...form, origin: 'https://evil.example' }, body, redirect: 'manual',
  });
  t.is(crossSite.status, 403);
  const elsewhere = await fetch(`${stack.url}/register?return_to=${encodeURIComponent('https://evil.example/')}`, {
    method: 'POST', headers: { ...form, origin: stack.url }, body, redirect: 'manual',
  });
  t.is(elsewhere.status, 400);
  const login = await fetch(`${stack.url}/auth/token`, {
    method: 'POST', headers: form, body: 'grant_type=password&client_id=tour-of-heroes&username=mallory-victim&password=mallory-long-password',
  });
  t.is(login.status, 400, 'no account was created');
});
