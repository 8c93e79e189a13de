/**
 * Login-form CSRF: POST /auth/code from a browser only from the service's own origin; another Origin (or Referer)
 * gets the error page and no code; requests with neither (clients posting directly) keep working.
 */
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { addClient, type TestServer } from '../_helpers/fixtures.ts';
import { postForm } from '../_helpers/http.ts';
import { chromiumPath, startSignInStage, type RedirectTarget, type SignInStage } from '../_helpers/browser.ts';
import { escapeHtml } from '../../src/endpoints/code/login-page.ts';
import { freePort } from '@heroes/test-kit';

const PUBLIC_ORIGIN = `http://127.0.0.1:${await freePort()}`; // the server's PUBLIC_BASE_URL: where it listens, as the browser tests reach it
let stage: SignInStage;
let s: TestServer;
let target: RedirectTarget;
let browser: Browser | undefined;

test.before(async () => {
  stage = await startSignInStage(PUBLIC_ORIGIN);
  ({ server: s, target, browser } = stage);
  await addClient(s.db, { id: 'web', secret: 'web-secret', redirectUri: target.url });
});
test.after.always(() => stage?.close());

const grantForm = (state: string) => ({ client_id: 'web', redirect_uri: target.url, response_type: 'code', state, username: 'bob', password: 'correct horse' });

/** node:http, which sends the Host it is given (fetch sends the URL's). */
function postWithHost(state: string, headers: Record<string, string>): Promise<{ status: number; location: string | null; text: string }> {
  const body = new URLSearchParams(grantForm(state)).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(`${s.url}/auth/code`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function post(state: string, headers: Record<string, string>) {
  const res = await postForm(`${s.url}/auth/code`, grantForm(state), headers);
  return { status: res.status, location: res.headers.get('location'), text: res.text, type: res.headers.get('content-type') };
}

for (const [label, headers] of [
  ['Origin of another site', { origin: 'https://evil.example' }],
  ['Origin of another port', { origin: 'http://localhost:8889' }],
  ['Origin "null" (sandboxed frame, opaque origin)', { origin: 'null' }],
  ['no Origin, Referer of another site', { referer: 'https://evil.example/login.html' }],
  ['Origin of another site next to our own Referer', { origin: 'https://evil.example', referer: `${PUBLIC_ORIGIN}/auth/code` }],
  ['no Origin, a malformed Referer', { referer: 'not a url' }],
] as const) {
  test(`${label} → 403 error page, no code`, async (t) => {
    const res = await post('csrf', headers);
    t.is(res.status, 403, res.text);
    t.is(res.location, null);
    t.regex(res.type ?? '', /^text\/html/);
    t.regex(res.text, /cross-site request/);
  });
}

for (const [label, headers] of [
  ['neither Origin nor Referer (a client posting directly)', {}],
  ['the public origin', { origin: PUBLIC_ORIGIN }],
  ['the public origin as Referer', { referer: `${PUBLIC_ORIGIN}/auth/code?client_id=web` }],
] as const) {
  test(`${label} → 302 with a code`, async (t) => {
    const res = await post('ok', headers);
    t.is(res.status, 302, res.text);
    t.truthy(new URL(res.location ?? 'about:blank').searchParams.get('code'));
  });
}

for (const [label, headers] of [
  // DNS rebinding: evil.example resolves to this server; the browser sends its own Host and Origin.
  ['a forged Host with the matching Origin (DNS rebinding)', { host: 'evil.example', origin: 'http://evil.example' }],
  ['a forged X-Forwarded-Host with the matching Origin', { 'x-forwarded-host': 'evil.example', origin: 'http://evil.example' }],
  ['a forged Host with the matching Referer', { host: 'evil.example', referer: 'http://evil.example/auth/code' }],
] as const) {
  test(`${label} → 403, no code: only PUBLIC_BASE_URL's origin is ours, never the Host`, async (t) => {
    const res = await postWithHost('rebinding', headers);
    t.is(res.status, 403, res.text);
    t.is(res.location, null);
  });
}

test('another name of the address the server listens on is not its origin (only PUBLIC_BASE_URL is)', async (t) => {
  const res = await postWithHost('direct', { host: `localhost:${new URL(s.url).port}`, origin: `http://localhost:${new URL(s.url).port}` });
  t.is(res.status, 403, res.text);
});

/** A page on another origin whose form posts the victim's... or the attacker's... credentials to /auth/code. */
async function startAttackerSite(action: string, fields: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><title>attacker</title><form method="POST" action="${escapeHtml(action)}">${inputs}<button type="submit">Win a prize</button></form>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

test.serial('Chromium: a form on another origin posting to /auth/code gets the error page, the client no code', async (t) => {
  if (!browser) return t.fail(`chromium not found at ${chromiumPath}`);
  const attacker = await startAttackerSite(`${s.url}/auth/code`, grantForm('forged'));
  const page = await browser.newPage();
  try {
    const hitsBefore = target.hits.length;
    await page.goto(attacker.url);
    const [response] = await Promise.all([
      page.waitForResponse((res) => res.url().startsWith(`${s.url}/auth/code`)),
      page.getByRole('button', { name: 'Win a prize' }).click(),
    ]);
    t.is(response.status(), 403);
    await page.waitForLoadState('load');
    t.is(await page.title(), 'Error');
    t.is(target.hits.length, hitsBefore, 'no redirect to the client, no code');
  } finally {
    await page.close();
    await attacker.close();
  }
});

test.serial('Chromium: the login page served by the service itself still signs in', async (t) => {
  if (!browser) return t.fail(`chromium not found at ${chromiumPath}`);
  const page = await browser.newPage();
  try {
    await page.goto(`${s.url}/auth/code?${new URLSearchParams({ client_id: 'web', redirect_uri: target.url, response_type: 'code', state: 'own' })}`);
    await page.getByLabel('Username').fill('bob');
    await page.getByLabel('Password').fill('correct horse');
    await Promise.all([page.waitForURL((url) => url.href.startsWith(target.url)), page.getByRole('button', { name: 'Sign in' }).click()]);
    t.truthy(new URL(page.url()).searchParams.get('code'));
  } finally {
    await page.close();
  }
});
