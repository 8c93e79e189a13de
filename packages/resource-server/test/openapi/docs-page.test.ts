/**
 * GET /docs in real Chromium: Swagger UI, served by this server alone (no
 * request leaves it), renders every route of /openapi.json.
 */
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '@heroes/test-kit';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;
let browser: Browser;

test.before(async () => {
  auth = await startFakeAuthServer();
  rs = await startInProcess(auth.url);
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await rs?.close();
  await auth?.close();
});

test('the docs page renders the API from this server only', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(rs.url)) foreign.push(request.url());
  });
  const res = await page.goto(`${rs.url}/docs`);
  t.is(res?.status(), 200);
  await page.getByText('Heroes', { exact: false }).first().waitFor({ timeout: 60_000 });
  const paths = page.locator('.opblock-summary-path');
  await paths.first().waitFor({ timeout: 60_000 });
  const shown = await paths.allInnerTexts();
  for (const route of ['/register', '/heroes', '/heroes/{id}', '/auth/token', '/auth/introspect', '/.well-known/oauth-authorization-server']) {
    t.true(shown.some((text) => text.replace(/\u200b/g, '') === route), `${route} in ${shown.join(' ')}`);
  }
  await t.notThrowsAsync(page.getByRole('button', { name: /Authorize/ }).first().waitFor({ timeout: 30_000 }), 'the OAuth2 security scheme is offered');
  if (process.env['SCREENSHOT_DIR']) await page.screenshot({ path: `${process.env['SCREENSHOT_DIR']}/docs.png`, fullPage: false });
  t.deepEqual(foreign, [], 'nothing loaded from elsewhere');
  await page.close();
});

test('the viewer assets are served locally, unknown ones are 404', async (t) => {
  const css = await fetch(`${rs.url}/docs/assets/swagger-ui.css`);
  t.is(css.status, 200);
  t.regex(css.headers.get('content-type') ?? '', /text\/css/);
  t.is((await fetch(`${rs.url}/docs/assets/nope.js`)).status, 404);
  t.is((await fetch(`${rs.url}/docs/assets/../../package.json`)).status, 404);
});
