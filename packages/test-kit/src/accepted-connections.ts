/**
 * The TCP sockets a process holds (Linux: /proc/<pid>/fd against /proc/<pid>/net/tcp{,6}), so a test knows requests
 * reached a server before it acts instead of sleeping: acceptedConnections (held open; the listen queue does not
 * count) and holdsLocalPort (which process is the client of a connection a server reports).
 * Usage: await waitFor(() => acceptedConnections(edgePid, edgePort) >= 16)
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
