/**
 * Headless Chromium (the shared test kit's launchBrowser), and a tiny
 * local HTTP server that plays the client's redirect URI.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export { launchBrowser } from '@heroes/test-kit';

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
