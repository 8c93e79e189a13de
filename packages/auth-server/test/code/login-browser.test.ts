import test from 'ava';
import type { Browser } from 'playwright-core';
import { addClient, type TestServer } from '../_helpers/fixtures.ts';
import { basic, postForm } from '../_helpers/http.ts';
import { chromiumPath, startSignInStage, type RedirectTarget, type SignInStage } from '../_helpers/browser.ts';
import { pkcePair } from '../_helpers/pkce.ts';
import { freePort } from '@heroes/test-kit';

// The browser posts the form with its page's Origin, which must be PUBLIC_BASE_URL's: the server listens there.
const PUBLIC_BASE_URL = `http://127.0.0.1:${await freePort()}`;
let stage: SignInStage;
let s: TestServer;
let target: RedirectTarget;
let browser: Browser | undefined;

test.before(async () => {
  stage = await startSignInStage(PUBLIC_BASE_URL);
  ({ server: s, target, browser } = stage);
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri: target.url, allowedScopes: ['heroes:read'] });
  await addClient(s.db, { id: 'spa', redirectUri: target.url });
});
test.after.always(() => stage?.close());

function authorizeUrl(params: Record<string, string>): string {
  return `${s.url}/auth/code?${new URLSearchParams({ response_type: 'code', redirect_uri: target.url, ...params }).toString()}`;
}

test.serial('a user signs in through the login page in Chromium and the client exchanges the code', async (t) => {
  if (!browser) return t.fail(`chromium not found at ${chromiumPath}`);
  const page = await browser.newPage();
  try {
    await page.goto(authorizeUrl({ client_id: 'web', state: 'xyz', scope: 'heroes:read' }));
    t.is(await page.title(), 'Sign in');
    await page.getByLabel('Username').fill('bob');
    await page.getByLabel('Password').fill('correct horse');
    await Promise.all([page.waitForURL((url) => url.href.startsWith(target.url)), page.getByRole('button', { name: 'Sign in' }).click()]);
    const landed = new URL(page.url());
    t.is(landed.searchParams.get('state'), 'xyz');
    t.is(landed.searchParams.get('iss'), PUBLIC_BASE_URL);
    const code = landed.searchParams.get('code') ?? '';
    t.regex(code, /^[A-Za-z0-9_-]{43,}$/);
    t.is(target.hits.at(-1)?.searchParams.get('code'), code, 'the client saw the code');

    const exchanged = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: target.url }, { authorization: basic('web', 'web-secret') });
    t.is(exchanged.status, 200, exchanged.text);
    t.is(exchanged.body['token_type'], 'bearer');
    t.is(exchanged.body['scope'], 'heroes:read');
    t.truthy(exchanged.body['refresh_token']);
  } finally {
    await page.close();
  }
});

test.serial('a wrong password shows the form again with an announced error, and no code', async (t) => {
  if (!browser) return t.fail(`chromium not found at ${chromiumPath}`);
  const page = await browser.newPage();
  try {
    const hitsBefore = target.hits.length;
    await page.goto(authorizeUrl({ client_id: 'web', state: 'abc' }));
    await page.getByLabel('Username').fill('bob');
    await page.getByLabel('Password').fill('wrong');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
    await page.getByRole('alert').waitFor();
    t.is((await page.getByRole('alert').textContent())?.trim(), 'Invalid username or password.');
    t.is(await page.getByLabel('Username').inputValue(), 'bob');
    t.is(await page.getByLabel('Password').inputValue(), '');
    t.is(target.hits.length, hitsBefore, 'no redirect to the client');
    // try again with the right password from the re-rendered form
    await page.getByLabel('Password').fill('correct horse');
    await Promise.all([page.waitForURL((url) => url.href.startsWith(target.url)), page.getByRole('button', { name: 'Sign in' }).click()]);
    t.is(new URL(page.url()).searchParams.get('state'), 'abc');
    t.truthy(new URL(page.url()).searchParams.get('code'));
  } finally {
    await page.close();
  }
});

test.serial('a public client with PKCE completes the flow in Chromium', async (t) => {
  if (!browser) return t.fail(`chromium not found at ${chromiumPath}`);
  const { verifier, challenge } = pkcePair();
  const page = await browser.newPage();
  try {
    await page.goto(authorizeUrl({ client_id: 'spa', state: 'p1', code_challenge: challenge, code_challenge_method: 'S256' }));
    await page.getByLabel('Username').fill('bob');
    await page.getByLabel('Password').fill('correct horse');
    await Promise.all([page.waitForURL((url) => url.href.startsWith(target.url)), page.getByRole('button', { name: 'Sign in' }).click()]);
    const code = new URL(page.url()).searchParams.get('code') ?? '';
    const exchanged = await postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: target.url, code_verifier: verifier }, { authorization: basic('spa', '') });
    t.is(exchanged.status, 200, exchanged.text);
    t.false('refresh_token' in exchanged.body);
  } finally {
    await page.close();
  }
});
