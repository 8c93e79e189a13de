/**
 * A private PgBouncer (Debian's, PGBOUNCER_PATH) in front of a test PostgreSQL server: its own port, config and auth
 * files in a temp dir, every database name forwarded. It stops with stop(), or when the test process dies (a shell
 * holds it and kills it when our pipe closes).
 * Usage: const bouncer = await startPgBouncer({ serverUrl, poolMode: 'transaction' }); bouncer.url(name); bouncer.admin('RECONNECT')
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';
import { spawnProcess, type SpawnedProcess } from './spawn-process.ts';

export interface PgBouncerOptions {
  /** Any URL of the PostgreSQL server (user, password, host, port); every database on it is served. */
  serverUrl: string;
  poolMode: 'transaction' | 'session';
  /** Server connections per database and user (`default_pool_size`, default 20). */
  poolSize?: number;
  /**
   * Startup parameters PgBouncer accepts and drops (`ignore_startup_parameters`), as docs/operations.md tells
   * operators to set it: the servers send their time limits as startup parameters.
   */
  ignoreStartupParameters?: string[];
  /** Further `[pgbouncer]` settings, e.g. `{ server_login_retry: 1 }`. */
  settings?: Record<string, string | number>;
}

export interface PgBouncer {
  port: number;
  /** The pooler's URL for `database` (default: the database of `serverUrl`), same user and password. */
  url(database?: string): string;
  /** Runs one admin-console command (`SHOW POOLS`, `RECONNECT`, `PAUSE`, ...) and returns its rows. */
  admin(command: string): Promise<Array<Record<string, unknown>>>;
  /** Everything PgBouncer logged so far. */
  output(): string;
  process: SpawnedProcess;
  /** SIGTERM (a fast exit, dropping client connections); removes the temp dir. */
  stop(): Promise<void>;
}

export const DEFAULT_IGNORED_STARTUP_PARAMETERS = ['statement_timeout', 'lock_timeout'];

/** Runs PgBouncer as `$@` and kills it when stdin (our pipe) closes; forwards TERM and INT; exits with its status. */
const WATCHDOG = `exec 3<&0
"$@" <&- &
child=$!
trap 'kill -TERM $child 2>/dev/null' TERM
trap 'kill -INT $child 2>/dev/null' INT
{ read _ <&3; kill -TERM $child 2>/dev/null; } &
reader=$!
status=0
while kill -0 $child 2>/dev/null; do wait $child; status=$?; done
kill $reader 2>/dev/null
exit $status`;

export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const server = new URL(options.serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-pgbouncer-'));
  // PgBouncer refuses to run as root: it then runs as `nobody`, who must read its files.
  fs.chmodSync(dir, 0o755);
  const binary = process.env['PGBOUNCER_PATH'] || '/usr/sbin/pgbouncer';
  const runAs = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const configFile = path.join(dir, 'pgbouncer.ini');
    fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" "${password}"\n`, { mode: 0o644 });
    fs.writeFileSync(configFile, config(options, server, port, dir, user, password !== ''), { mode: 0o644 });
    try {
      const spawned = await spawnProcess('sh', ['-c', WATCHDOG, 'pgbouncer-watchdog', binary, ...runAs, configFile], {
        ready: /process up: PgBouncer/,
        stdin: 'pipe',
        timeoutMs: 20_000,
      });
      return handle(spawned, port, server, dir);
    } catch (error) {
      if (attempt >= 3 || !/Address already in use/.test(String(error))) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

function config(options: PgBouncerOptions, server: URL, port: number, dir: string, user: string, hasPassword: boolean): string {
  const settings: Record<string, string | number> = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: '',
    pidfile: '',
    auth_type: hasPassword ? 'plain' : 'trust',
    auth_file: path.join(dir, 'userlist.txt'),
    admin_users: user,
    pool_mode: options.poolMode,
    default_pool_size: options.poolSize ?? 20,
    max_client_conn: 500,
    ignore_startup_parameters: (options.ignoreStartupParameters ?? DEFAULT_IGNORED_STARTUP_PARAMETERS).join(','),
    log_connections: 0,
    log_disconnections: 0,
    ...options.settings,
  };
  const lines = ['[databases]', `* = host=${server.hostname.replace(/^\[|\]$/g, '')} port=${server.port || 5432}`, '', '[pgbouncer]'];
  for (const [name, value] of Object.entries(settings)) lines.push(`${name} = ${value}`);
  return `${lines.join('\n')}\n`;
}

function handle(spawned: SpawnedProcess, port: number, server: URL, dir: string): PgBouncer {
  const url = (database = server.pathname.slice(1)) => {
    const pooled = new URL(server.toString());
    pooled.hostname = '127.0.0.1';
    pooled.port = String(port);
    pooled.pathname = `/${database}`;
    return pooled.toString();
  };
  return {
    port,
    url,
    output: spawned.output,
    process: spawned,
    async admin(command) {
      // The admin console speaks only the simple query protocol: pg uses it for a text without parameters.
      const client = new pg.Client({ connectionString: url('pgbouncer') });
      await client.connect();
      try {
        return (await client.query(command)).rows;
      } finally {
        await client.end();
      }
    },
    async stop() {
      await spawned.stop('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
