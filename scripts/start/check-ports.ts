/**
 * Fails start-up before anything runs when a port the servers need is taken:
 * binds each address for a moment, as the server will.
 */
import net from 'node:net';

export interface Address {
  name: string;
  host: string;
  port: number;
}

/** One line per address that cannot be bound. */
export async function unavailablePorts(addresses: Address[]): Promise<string[]> {
  const problems: string[] = [];
  for (const { name, host, port } of addresses) {
    if (port === 0) continue;
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      const server = net.createServer();
      server.once('error', (err) => resolve(err as NodeJS.ErrnoException));
      server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)));
    });
    if (error) {
      const why = error.code === 'EADDRINUSE' ? 'the port is already in use' : (error.code ?? error.message);
      problems.push(`${name}=${port}: cannot listen on ${host}:${port}: ${why}`);
    }
  }
  return problems;
}
