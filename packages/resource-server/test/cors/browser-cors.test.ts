/**
 * A web app on another origin in real Chromium against both servers: the hero API and /register answer it (errors
 * included, WWW-Authenticate readable); the token endpoint only from the client's allowed origins (docs/oauth.md,
 * "Browser origins").
 */
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import type { PrismaClient } from '@heroes/db';
import { addClient, basic, launchBrowser, servePage, type PageServer } from '@heroes/test-kit';
import { startProcessStack, type ChildServer, type ProcessStack } from '../_helpers/processes.ts';

let stack: ProcessStack;
let db: PrismaClient;
let edge: ChildServer;
let browser: Browser;
let app: PageServer;
let stranger: PageServer;

test.before(async () => {
  stack = await startProcessStack();
  ({ db, edge } = stack);
  app = await servePage('<!DOCTYPE html><title>app</title>');
  stranger = await servePage('<!DOCTYPE html><title>stranger</title>');
  // A public client whose allowed origin is the app's page; a second one left to its redirect URIs' origins
  // (the page's origin is its second redirect URI's: every one counts, not only the first).
  await addClient(db, { id: 'spa', allowedOrigins: [app.origin] });
  await addClient(db, { id: 'spa-by-redirect', redirectUris: ['https://elsewhere.example/callback', `${stranger.origin}/callback`] });
  await addClient(db, { id: 'confidential-web', secret: 'web secret', allowedOrigins: [app.origin] });
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
  await stranger?.close();
  await stack?.stop();
});

interface Seen { ok: true; status: number; body: string; wwwAuthenticate: string | null; requestId: string | null }
type Outcome = Seen | { ok: false; error: string };

/** Runs fetch in the page; a CORS refusal shows as `{ ok: false }` ("Failed to fetch"). */
async function fetchFrom(page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Outcome> {
  return page.evaluate(async ({ url, init }) => {
    try {
      const res = await fetch(url, init);
      return { ok: true as const, status: res.status, body: await res.text(), wwwAuthenticate: res.headers.get('WWW-Authenticate'), requestId: res.headers.get('X-Request-Id') };
    } catch (error) {
      return { ok: false as const, error: String(error) };
    }
  }, { url, init });
}

async function openPage(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

test.serial('a page on another origin registers, signs in and uses the hero API', async (t) => {
  const page = await openPage(app.origin);
  const registered = await fetchFrom(page, `${edge.url}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'cora', password: 'cora password' }) });
  t.like(registered, { ok: true, status: 200 });

  const token = await fetchFrom(page, `${edge.url}/auth/token`, form({ grant_type: 'password', username: 'cora', password: 'cora password', client_id: 'spa' }));
  t.like(token, { ok: true, status: 200 });
  const accessToken = (JSON.parse((token as Seen).body) as { access_token: string }).access_token;
  const authorization = { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' };

  const created = await fetchFrom(page, `${edge.url}/heroes`, { method: 'POST', headers: authorization, body: JSON.stringify({ name: 'Dr. Cors' }) });
  t.like(created, { ok: true, status: 200 });
  const hero = JSON.parse((created as Seen).body) as { id: number };
  t.like(await fetchFrom(page, `${edge.url}/heroes/${hero.id}`, { method: 'PUT', headers: authorization, body: JSON.stringify({ name: 'Dr. Cors II' }) }), { ok: true, status: 200 });
  const listed = await fetchFrom(page, `${edge.url}/heroes?name=cors`, { headers: authorization });
  t.like(listed, { ok: true, status: 200 });
  t.deepEqual(JSON.parse((listed as Seen).body), [{ id: hero.id, name: 'Dr. Cors II' }]);
  t.truthy((listed as Seen).requestId, 'X-Request-Id is exposed');
  t.like(await fetchFrom(page, `${edge.url}/heroes/${hero.id}`, { method: 'DELETE', headers: authorization }), { ok: true, status: 204 });

  const revoked = await fetchFrom(page, `${edge.url}/auth/revoke`, form({ token: accessToken, client_id: 'spa' }));
  t.like(revoked, { ok: true, status: 200 });
  await page.close();
});

test.serial('hero API errors reach the page with their status and WWW-Authenticate', async (t) => {
  const page = await openPage(stranger.origin);
  const missing = await fetchFrom(page, `${edge.url}/heroes`);
  t.like(missing, { ok: true, status: 401 });
  t.regex((missing as Seen).wwwAuthenticate ?? '', /^Bearer/);
  const invalid = await fetchFrom(page, `${edge.url}/heroes`, { headers: { Authorization: 'Bearer not-a-token' } });
  t.like(invalid, { ok: true, status: 401 });
  t.regex((invalid as Seen).wwwAuthenticate ?? '', /error="invalid_token"/);
  const badBody = await fetchFrom(page, `${edge.url}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
  t.like(badBody, { ok: true, status: 400 });
  t.like(await fetchFrom(page, `${edge.url}/nowhere`), { ok: true, status: 404 });
  await page.close();
});

test.serial('the token endpoint answers a client only from its allowed origins, errors included', async (t) => {
  const fromStranger = await openPage(stranger.origin);
  t.like(
    await fetchFrom(fromStranger, `${edge.url}/auth/token`, form({ grant_type: 'password', username: 'cora', password: 'cora password', client_id: 'spa' })),
    { ok: false },
    'an origin the client did not allow cannot read its token answer',
  );
  // The redirect URIs' origins are allowed by default.
  const byRedirect = await fetchFrom(fromStranger, `${edge.url}/auth/token`, form({ grant_type: 'password', username: 'cora', password: 'cora password', client_id: 'spa-by-redirect' }));
  t.like(byRedirect, { ok: true, status: 200 });
  await fromStranger.close();

  const fromApp = await openPage(app.origin);
  const wrongPassword = await fetchFrom(fromApp, `${edge.url}/auth/token`, form({ grant_type: 'password', username: 'cora', password: 'nope', client_id: 'spa' }));
  t.like(wrongPassword, { ok: true, status: 400 });
  t.is((JSON.parse((wrongPassword as Seen).body) as { error: string }).error, 'invalid_grant');
  await fromApp.close();
});

test.serial('errors our own layers give before the library still reach an allowed page', async (t) => {
  const page = await openPage(app.origin);
  // A public client may not introspect (401, refused before the library runs).
  const introspect = await fetchFrom(page, `${edge.url}/auth/introspect`, form({ token: 'whatever', client_id: 'spa' }));
  t.like(introspect, { ok: true, status: 401 });
  // A form in a charset nobody knows (415, refused while reading the body).
  const authorization = basic('confidential-web', 'web secret');
  const wrongType = await fetchFrom(page, `${edge.url}/auth/token`, { method: 'POST', headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded; charset=klingon' }, body: 'grant_type=password' });
  t.like(wrongType, { ok: true, status: 415 });
  // The same error for a page the client did not allow stays hidden.
  await page.close();
  const other = await openPage(stranger.origin);
  t.like(await fetchFrom(other, `${edge.url}/auth/token`, { method: 'POST', headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded; charset=klingon' }, body: 'grant_type=password' }), { ok: false });
  await other.close();
});
