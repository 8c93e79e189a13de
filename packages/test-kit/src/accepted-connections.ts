/**
 * The TCP sockets a process holds (Linux: its sockets in /proc/<pid>/fd
 * matched with /proc/<pid>/net/tcp{,6}).
 * - acceptedConnections: how many connections to `port` the server process
 *   `pid` has accepted and holds open. A connection still waiting in the
 *   listen queue is not counted: it has no socket in the process yet.
 * - holdsLocalPort: whether `pid` holds a socket bound to local `port` (which
 *   process is the client of a connection a server reports, e.g. PostgreSQL's
 *   pg_stat_activity.client_port).
 *
 * For tests that must know requests reached a server before they act (a
 * SIGTERM that must find them in flight), instead of sleeping:
 *   await waitFor(() => acceptedConnections(edgePid, edgePort) >= 16);
 */
import fs from 'node:fs';

const ESTABLISHED = '01';

interface SocketRow {
  localPort: number;
  state: string;
}

/** The TCP sockets `pid` holds. */
function socketsOf(pid: number): SocketRow[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed while we looked
    }
  }
  const rows: SocketRow[] = [];
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue; // no IPv6 on this machine
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || !inodes.has(fields[9]!)) continue;
      rows.push({ localPort: Number.parseInt(fields[1]!.split(':')[1]!, 16), state: fields[3]! });
    }
  }
  return rows;
}

export function acceptedConnections(pid: number, port: number): number {
  return socketsOf(pid).filter((row) => row.localPort === port && row.state === ESTABLISHED).length;
}

export function holdsLocalPort(pid: number, port: number): boolean {
  return socketsOf(pid).some((row) => row.localPort === port);
}
