/**
 * Headless Chromium (the shared test kit's launchBrowser), a tiny local
 * HTTP server that plays the client's redirect URI, and the stage of the
 * sign-in tests that drive the login page in Chromium.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '@heroes/test-kit';
import { addUser, startTestServer, type TestServer } from './fixtures.ts';

export { launchBrowser };

/** Where Chromium is expected (`npm test` finds or installs it and sets CHROMIUM_PATH). */
export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export interface SignInStage {
  server: TestServer;
  target: RedirectTarget;
  /** Undefined when Chromium is not installed: the tests that need it fail saying so. */
  browser: Browser | undefined;
  close(): Promise<void>;
}

/**
 * An auth server listening at `publicBaseUrl` (http://127.0.0.1:<free port>):
 * Chromium posts the login form with its page's Origin, which must be
 * PUBLIC_BASE_URL's. With a redirect target, the user bob ('correct horse')
 * and Chromium; the test file adds its clients.
 */
export async function startSignInStage(publicBaseUrl: string): Promise<SignInStage> {
  const server = await startTestServer({ port: Number(new URL(publicBaseUrl).port), publicBaseUrl });
  let target: RedirectTarget | undefined;
  try {
    target = await startRedirectTarget();
    await addUser(server.db, 'bob', 'correct horse');
    const browser = fs.existsSync(chromiumPath) ? await launchBrowser() : undefined;
    const started = target;
    return {
      server,
      target: started,
      browser,
      close: async () => {
        await browser?.close();
        await started.close();
        await server.close();
      },
    };
  } catch (err) {
    await target?.close();
    await server.close();
    throw err;
  }
}

export interface RedirectTarget {
  url: string;
  hits: URL[];
  close(): Promise<void>;
}

export async function startRedirectTarget(): Promise<RedirectTarget> {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/cb') {
      res.writeHead(404).end(); // e.g. /favicon.ico
      return;
    }
    hits.push(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><title>client</title><p>signed in</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/cb`,
    hits,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
