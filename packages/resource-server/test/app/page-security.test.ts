/**
 * /app and /docs load only this server's files and nobody may frame them (CSP with `frame-ancestors 'none'`,
 * X-Frame-Options: DENY); in real Chromium both still work under their policy with no CSP violation, and a page of
 * another origin cannot frame them.
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { servePage } from '@heroes/test-kit';
import { signIn, startAppInBrowser, WAIT, type AppStack, type AppInBrowser } from '../_helpers/web-app.ts';

let app: AppInBrowser;
let stack: AppStack;
let browser: Browser;

test.before(async () => {
  app = await startAppInBrowser('framed', 'hero-password-1');
  ({ stack, browser } = app);
});
test.after.always(() => app?.close());

const PAGES = ['/', '/app', '/app/', '/app/dashboard', '/app/heroes/7', '/docs'];

for (const path of PAGES) {
  test(`GET ${path}: a CSP that forbids framing and foreign or inline code, and X-Frame-Options: DENY`, async (t) => {
    const res = await fetch(`${stack.url}${path}`);
    await res.arrayBuffer();
    t.is(res.status, 200);
    const policy = directives(res.headers.get('content-security-policy') ?? '');
    t.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
    t.deepEqual(policy.get('default-src'), ["'self'"]);
    t.deepEqual(policy.get('script-src'), ["'self'"]);
    t.deepEqual(policy.get('object-src'), ["'none'"]);
    t.deepEqual(policy.get('base-uri'), ["'none'"]);
    for (const [name, sources] of policy) {
      t.false(sources.some((source) => /unsafe|^https?:|^\*$/.test(source)), `${name} ${sources.join(' ')}`);
    }
    t.is(res.headers.get('x-frame-options'), 'DENY');
  });
}

function directives(header: string): Map<string, string[]> {
  return new Map(header.split(';').map((part) => part.trim().split(/\s+/)).filter(([name]) => name).map(([name, ...sources]) => [name!, sources]));
}

/** Every CSP violation a page reports, from its first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  // Runs in the page before its own scripts (as a string: this package compiles without the DOM types).
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (event) => window.reportViolation(event.violatedDirective + ' ' + event.blockedURI));",
  });
  return violations;
}

test.serial('Chromium: under its policy the app signs in and lists heroes, with no CSP violation', async (t) => {
  const page = await browser.newPage();
  const violations = await watchViolations(page);
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(String(error)));
  try {
    await page.goto(`${stack.url}/app/`);
    await signIn(page, 'framed', 'hero-password-1');
    await page.getByRole('heading', { name: 'Top Heroes' }).waitFor(WAIT);
    await page.getByRole('link', { name: 'Heroes' }).click();
    await page.getByLabel('Hero name').fill('Windstorm');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('link', { name: 'Windstorm', exact: true }).waitFor(WAIT);
    t.deepEqual(violations, []);
    t.deepEqual(failures, []);
  } finally {
    await page.close();
  }
});

test.serial('Chromium: under its policy /docs renders the operations, with no CSP violation', async (t) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
  const violations = await watchViolations(page);
  try {
    await page.goto(`${stack.url}/docs`);
    await page.locator('.opblock-summary-path').first().waitFor(WAIT);
    t.true((await page.locator('.opblock-summary-path').count()) >= 5);
    // Expanding an operation renders its schemas and examples too.
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor(WAIT);
    t.deepEqual(violations, []);
  } finally {
    await page.close();
  }
});

test.serial('Chromium: a page of another origin cannot frame /app or /docs', async (t) => {
  const attacker = await servePage(`<!DOCTYPE html><title>attacker</title>
<iframe id="app" src="${stack.url}/app/"></iframe><iframe id="docs" src="${stack.url}/docs"></iframe>`);
  const page = await browser.newPage();
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/frame-ancestors|X-Frame-Options/.test(message.text())) refused.push(message.text());
  });
  try {
    await page.goto(attacker.origin);
    await page.waitForLoadState('load');
    for (const id of ['app', 'docs']) {
      const frame = await (await page.$(`#${id}`))!.contentFrame();
      // A refused frame shows Chromium's error document, never our page.
      const title = await frame?.title().catch(() => '');
      t.notRegex(title ?? '', /Tour of Heroes|Heroes API/, id);
    }
    t.true(refused.length >= 1, 'Chromium names the policy that refused the frames');
  } finally {
    await page.close();
    await attacker.close();
  }
});
