/**
 * A TCP port that was free on 127.0.0.1 a moment ago, for a server started a little later. Picked below the
 * kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), where neither the OS's own picks nor
 * outgoing connections' source ports land; the OS's pick where the range leaves no room below it.
 */
import fs from 'node:fs';
import net from 'node:net';

export async function freePort(): Promise<number> {
  const below = ephemeralRangeStart();
  if (below > 10_000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = 10_000 + Math.floor(Math.random() * (below - 10_000));
      if (await canListen(port)) return port;
    }
  }
  return listenOnce(0);
}

function ephemeralRangeStart(): number {
  try {
    const first = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) ? first : 0;
  } catch {
    return 0; // not Linux: the OS picks
  }
}

async function canListen(port: number): Promise<boolean> {
  try {
    await listenOnce(port);
    return true;
  } catch {
    return false;
  }
}

/** Listens on `port` (0: the OS picks), closes, and answers the port. */
async function listenOnce(port: number): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return bound;
}
