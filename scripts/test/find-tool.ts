/**
 * Finds a program the test suites drive (Chromium, HAProxy, nginx, PgBouncer, docker-compose): the path in its
 * environment variable when set, else the first executable candidate, else
 * the first match on PATH.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ToolSpec {
  /** Debian package that provides it, e.g. `chromium`. */
  debianPackage: string;
  /** Environment variable that names the binary, e.g. `CHROMIUM_PATH`. */
  envVar: string;
  /** Absolute paths tried in order, then the names on PATH. */
  candidates: string[];
  names: string[];
}

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function findTool(spec: ToolSpec, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env[spec.envVar];
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
  for (const candidate of spec.candidates) if (isExecutable(candidate)) return candidate;
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of spec.names) {
      const file = path.join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}

export const chromiumSpec: ToolSpec = {
  debianPackage: 'chromium',
  envVar: 'CHROMIUM_PATH',
  candidates: ['/usr/bin/chromium'],
  names: ['chromium', 'chromium-browser'],
};

export const haproxySpec: ToolSpec = {
  debianPackage: 'haproxy',
  envVar: 'HAPROXY_PATH',
  candidates: ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'],
  names: ['haproxy'],
};

export const nginxSpec: ToolSpec = {
  debianPackage: 'nginx',
  envVar: 'NGINX_PATH',
  candidates: ['/usr/sbin/nginx', '/usr/local/sbin/nginx'],
  names: ['nginx'],
};

export const pgbouncerSpec: ToolSpec = {
  debianPackage: 'pgbouncer',
  envVar: 'PGBOUNCER_PATH',
  candidates: ['/usr/sbin/pgbouncer', '/usr/local/sbin/pgbouncer', '/usr/local/bin/pgbouncer'],
  names: ['pgbouncer'],
};

export const dockerComposeSpec: ToolSpec = {
  debianPackage: 'docker-compose',
  envVar: 'DOCKER_COMPOSE_PATH',
  candidates: ['/usr/bin/docker-compose', '/usr/local/bin/docker-compose'],
  names: ['docker-compose'],
};
