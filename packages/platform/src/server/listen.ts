/**
 * Starts an http.Server listening, the one way both servers do: resolves once bound, rejects with the listen error
 * (EADDRINUSE, EACCES) so a taken port fails start-up first; the URL names a reachable host (127.0.0.1 for a
 * wildcard, IPv6 in brackets).
 * Usage: const { url, port } = await listen(server, 8888, '0.0.0.0')
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** e.g. http://127.0.0.1:8888 */
  url: string;
  port: number;
}

export function listen(server: Server, port: number, host: string): Promise<Listening> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const bound = (server.address() as AddressInfo).port;
      resolve({ url: `http://${shownHost(host)}:${bound}`, port: bound });
    });
  });
}

/** The host to put in a URL for a listen address. */
export function shownHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
