/**
 * /docs works out of the box in real Chromium against both servers:
 * "Authorize" signs in with the built-in public client (code + PKCE, back
 * to /docs through Swagger UI's redirect page), then "Try it out" on
 * GET /heroes answers 200; a pasted bearer token works too.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { createDb } from '@heroes/db';
import { addClient, passwordToken } from '@heroes/test-kit';
import { startAppInBrowser, WAIT, type AppStack, type AppInBrowser } from '../_helpers/web-app.ts';

let app: AppInBrowser;
let stack: AppStack;
let browser: Browser;

test.before(async () => {
  app = await startAppInBrowser('docs-user', 'docs-user-password');
  ({ stack, browser } = app);
});
test.after.always(() => app?.close());

/** Expands GET /heroes, presses "Try it out" and "Execute"; resolves with the status of the call it made. */
async function tryListHeroes(page: Page): Promise<number> {
  const operation = page.locator('#operations-heroes-get_heroes, .opblock-get').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/heroes$/ }) }).first();
  await operation.locator('.opblock-summary').click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/heroes' && res.request().method() === 'GET', WAIT);
  await operation.getByRole('button', { name: 'Execute' }).click();
  return (await answered).status();
}

test.serial('Authorize signs in with the built-in client; Try it out on GET /heroes answers 200', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  await page.goto(`${stack.url}/docs`);
  await page.locator('.btn.authorize').first().click();
  const codeFlow = page.locator('.auth-container').filter({ hasText: 'authorizationCode' });
  await codeFlow.waitFor(WAIT);
  t.is(await codeFlow.locator('input#client_id_authorizationCode').inputValue(), 'tour-of-heroes', 'the built-in client is filled in');
  const [popup] = await Promise.all([page.waitForEvent('popup', WAIT), codeFlow.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click()]);
  await popup.getByLabel('Username').fill('docs-user');
  await popup.getByLabel('Password').fill('docs-user-password');
  const exchanged = page.waitForResponse((res) => new URL(res.url()).pathname === '/auth/token', WAIT);
  await popup.getByRole('button', { name: 'Sign in' }).click();
  t.is((await exchanged).status(), 200, 'the page exchanged the code (PKCE) at /auth/token');
  await page.locator('.btn.authorize.locked').first().waitFor(WAIT);
  await page.locator('.close-modal').click();

  t.is(await tryListHeroes(page), 200);
  await page.close();
});

test.serial('a pasted bearer token works too', async (t) => {
  // The built-in client may use the code flow only: a client of the reader's own gets the token to paste.
  const db = createDb(stack.database.url);
  await addClient(db, { id: 'docs-reader' }).finally(() => db.$disconnect());
  const { access_token: token } = await passwordToken(stack.url, { id: 'docs-reader' }, 'docs-user', 'docs-user-password');
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  await page.goto(`${stack.url}/docs`);
  await page.locator('.btn.authorize').first().click();
  const bearer = page.locator('.auth-container').filter({ hasText: 'bearerToken' });
  await bearer.locator('input').fill(token);
  await bearer.getByRole('button', { name: 'Apply credentials' }).click();
  await bearer.getByRole('button', { name: 'Close' }).click();
  const sent = page.waitForRequest((req) => new URL(req.url()).pathname === '/heroes', WAIT);
  t.is(await tryListHeroes(page), 200);
  t.is((await sent).headers()['authorization'], `Bearer ${token}`);
  await page.close();
});

test.serial('Try it out on POST /register sends a new Idempotency-Key each time', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  await page.goto(`${stack.url}/docs`);
  const operation = page.locator('.opblock-post').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/register$/ }) }).first();
  await operation.locator('.opblock-summary').click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  const keys: string[] = [];
  for (let i = 0; i < 2; i++) {
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/register' && res.request().method() === 'POST', WAIT);
    await operation.getByRole('button', { name: 'Execute' }).click();
    keys.push((await answered).request().headers()['idempotency-key'] ?? '');
  }
  for (const key of keys) t.regex(key, /^"[0-9a-f]{32}"$/);
  t.not(keys[0], keys[1]);
  await page.close();
});
