/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore, to
 * simulate the database becoming unreachable while the server runs.
 *
 * Usage:
 *   const proxy = await startTcpProxy(5432);
 *   const url = proxy.rewrite(testDb.url); // same database, through the proxy
 *   await proxy.cut();     // every connection dropped, new ones refused
 *   await proxy.restore(); // listening again on the same port
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  rewrite(databaseUrl: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const next = net.createServer((incoming) => {
        const outgoing = net.connect(targetPort, targetHost);
        for (const socket of [incoming, outgoing]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        incoming.pipe(outgoing).pipe(incoming);
        incoming.on('close', () => outgoing.destroy());
        outgoing.on('close', () => incoming.destroy());
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as net.AddressInfo).port;
        server = next;
        resolve();
      });
    });

  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await open();
  return {
    get port() {
      return port;
    },
    rewrite(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.href;
    },
    cut,
    restore: open,
    close: cut,
  };
}
