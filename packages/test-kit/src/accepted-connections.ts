/**
 * How many TCP connections to `port` the server process `pid` has accepted
 * and holds open (Linux: its sockets in /proc/<pid>/fd matched with
 * /proc/<pid>/net/tcp{,6}). A connection still waiting in the listen queue
 * is not counted: it has no socket in the process yet.
 *
 * For tests that must know requests reached a server before they act (a
 * SIGTERM that must find them in flight), instead of sleeping:
 *   await waitFor(() => acceptedConnections(edgePid, edgePort) >= 16);
 */
import fs from 'node:fs';

const ESTABLISHED = '01';

export function acceptedConnections(pid: number, port: number): number {
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
  let count = 0;
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue; // no IPv6 on this machine
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const localPort = Number.parseInt(fields[1]!.split(':')[1]!, 16);
      if (localPort === port && fields[3] === ESTABLISHED && inodes.has(fields[9]!)) count++;
    }
  }
  return count;
}
