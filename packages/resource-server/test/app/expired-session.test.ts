/**
 * The web app when its token expires (docs/web-app.md): the next call gets 401, the app says the session expired
 * and "Sign in" works again. Code-flow tokens live 10 s here; if a loaded machine takes longer to show the list, the
 * list's own call meets the expiry and the same message must show.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '@heroes/test-kit';
import { registerUser, signIn, startAppStack, WAIT, type AppStack } from '../_helpers/web-app.ts';

let stack: AppStack;
let browser: Browser;

test.before(async () => {
  stack = await startAppStack({ CODE_ACCESS_TOKEN_TTL: '10' });
  await registerUser(stack.url, 'brief', 'brief password');
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await stack?.close();
});

test('an expired session asks to sign in again', async (t) => {
  const page = await browser.newPage();
  await page.goto(`${stack.url}/app/heroes`);
  await signIn(page, 'brief', 'brief password');
  await page.getByRole('heading', { name: 'Heroes', exact: true }).waitFor(WAIT);
  t.regex(page.url(), /\/app\/heroes$/, 'back where the sign-in started');

  // Wait until the token has expired by the clock (a condition, not a guess), then act.
  const expiresAt = await page.evaluate(() => JSON.parse(sessionStorage.getItem('heroes.session') ?? '{}').expiresAt as number);
  await page.waitForFunction((at) => Date.now() > at + 1000, expiresAt, { timeout: 60_000, polling: 200 });
  const add = page.getByRole('button', { name: 'Add' });
  if ((await add.count()) === 1 && (await add.isEnabled())) {
    const answered = page.waitForResponse((res) => res.url().endsWith('/heroes') && res.request().method() === 'POST', WAIT);
    await page.getByLabel('Hero name').fill('Too Late');
    await page.getByRole('button', { name: 'Add' }).click();
    t.is((await answered).status(), 401, 'the server refused the expired token');
  }
  await page.getByRole('alert').filter({ hasText: 'Your session has expired. Sign in again.' }).waitFor(WAIT);

  // Signing in again works.
  await signIn(page, 'brief', 'brief password');
  await page.getByRole('heading', { name: 'Heroes', exact: true }).waitFor(WAIT);
  t.false(await page.getByRole('alert').isVisible());
  await page.close();
});
