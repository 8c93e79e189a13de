/** The haproxy binary (Debian's package installs /usr/sbin/haproxy), or undefined. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export function findHaproxy(): string | undefined {
  if (process.env.HAPROXY_PATH) return process.env.HAPROXY_PATH;
  for (const candidate of ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy']) {
    if (fs.existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}
