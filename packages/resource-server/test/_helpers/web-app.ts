/**
 * The whole stack for the web app's browser tests: both servers as
 * processes on a fresh database, PUBLIC_BASE_URL set to the edge's address
 * (so the app's client is registered with that callback), and a user.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '@heroes/test-kit';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { freePort, startAuthProcess, startResourceProcess, type ChildServer } from './processes.ts';

export interface AppStack {
  url: string;
  database: TestDatabase;
  auth: ChildServer;
  edge: ChildServer;
  close(): Promise<void>;
}

export async function startAppStack(authEnv: Record<string, string> = {}): Promise<AppStack> {
  const database = await createTestDatabase();
  const [authPort, edgePort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${edgePort}`;
  const auth = await startAuthProcess(database.url, authPort, url, authEnv);
  const edge = await startResourceProcess(database.url, edgePort, auth.url, { PUBLIC_BASE_URL: url });
  return {
    url, database, auth, edge,
    async close() {
      await edge.stop();
      await auth.stop();
      await database.drop();
    },
  };
}

export interface AppInBrowser {
  stack: AppStack;
  browser: Browser;
  close(): Promise<void>;
}

/** What every browser test of /app and /docs starts with: the stack, a registered user and Chromium. */
export async function startAppInBrowser(username: string, password: string): Promise<AppInBrowser> {
  const stack = await startAppStack();
  try {
    await registerUser(stack.url, username, password);
    const browser = await launchBrowser();
    return {
      stack,
      browser,
      async close() {
        await browser.close();
        await stack.close();
      },
    };
  } catch (err) {
    await stack.close();
    throw err;
  }
}

export async function registerUser(base: string, username: string, password: string): Promise<void> {
  const res = await fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (res.status !== 200) throw new Error(`register: ${res.status} ${await res.text()}`);
}

/** From the app's signed-out screen through the login form, back into the app. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export const WAIT = { timeout: 60_000 };
