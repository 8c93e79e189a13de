/**
 * A TCP pass-through a test can cut, stall and restore on the same port: the database or an upstream went away,
 * hangs, came back.
 * Usage: const proxy = await startTcpProxy({ host, port }); proxy.rewrite(databaseUrl); await proxy.cut();
 *        await proxy.restore(); proxy.stall(); proxy.resume(); await proxy.close()
 */
import net from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const host = target.host ?? '127.0.0.1';
  const sockets = new Set<net.Socket>();
  const held: Array<() => void> = [];
  let stalled = false;
  let server: net.Server | undefined;
  let port = 0;

  // Forwards by hand (not pipe) so that a stall can hold bytes without closing anything.
  const forward = (from: net.Socket, to: net.Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (stalled) held.push(() => to.write(chunk));
      else to.write(chunk);
    });

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const next = net.createServer((incoming) => {
        const outgoing = net.connect(target.port, host);
        for (const socket of [incoming, outgoing]) {
          sockets.add(socket);
          socket.on('error', () => socket.destroy());
          socket.on('close', () => sockets.delete(socket));
        }
        forward(incoming, outgoing);
        forward(outgoing, incoming);
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
      held.length = 0;
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await open();
  return {
    get port() {
      return port;
    },
    rewrite(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.href;
    },
    cut,
    restore: open,
    stall() {
      stalled = true;
    },
    resume() {
      stalled = false;
      for (const send of held.splice(0)) send();
    },
    close: cut,
  };
}
