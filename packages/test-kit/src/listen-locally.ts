/**
 * Puts a test's node:http server on 127.0.0.1 at a port the kernel picks, and closes it with its open connections
 * (keep-alive ones would hold close() until they time out).
 * Usage: const served = await listenLocally(server); t.teardown(served.close); fetch(`${served.url}/heroes`)
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

export async function listenLocally(server: http.Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
