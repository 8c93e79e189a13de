/**
 * Headless Chromium (Debian's package; `npm test` finds or installs it and
 * passes CHROMIUM_PATH) through playwright-core, and a tiny page server that
 * plays a web app on its own origin.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

export interface PageServer {
  /** `http://127.0.0.1:<port>`: an origin of its own. */
  origin: string;
  close(): Promise<void>;
}

/** Serves `html` at every path, from a fresh origin on 127.0.0.1. */
export async function servePage(html: string): Promise<PageServer> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
