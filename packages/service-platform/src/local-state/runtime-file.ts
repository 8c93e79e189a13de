/**
 * The running stack's runtime file: `npm start` writes
 * `$HEROES_DATA_DIR/running.json` (mode 0600: the database URL carries a
 * password) once it knows its database, and removes it when it stops. The
 * `auth` command line reads it to find the database of the running service
 * instead of guessing (and never starts or creates an embedded cluster of
 * its own).
 *
 * Rules enforced here:
 * - written to a temporary file and renamed into place (never half-written);
 * - a file whose process is gone (crash, SIGKILL) counts as absent: the
 *   reader says so instead of using a database that may be stopped.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from './process-alive.ts';

export const RUNTIME_FILE_NAME = 'running.json';

export interface RuntimeInfo {
  /** The `npm start` process. */
  pid: number;
  /** The database the servers use (the service's role, never the superuser). */
  databaseUrl: string;
  /** 'embedded' for the embedded PostgreSQL server, 'env' for DATABASE_URL. */
  source: 'embedded' | 'env';
  publicBaseUrl: string;
}

export function runtimeFilePath(dataDir: string): string {
  return path.join(dataDir, RUNTIME_FILE_NAME);
}

/** Usage (npm start): `writeRuntimeFile(dataDir, { pid: process.pid, databaseUrl, source, publicBaseUrl })` */
export function writeRuntimeFile(dataDir: string, info: RuntimeInfo): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = runtimeFilePath(dataDir);
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** Removes the file when it is still this process's (a later start may have replaced it). */
export function removeRuntimeFile(dataDir: string, pid: number = process.pid): void {
  const found = readRuntimeFile(dataDir);
  if (found.state !== 'absent' && found.info.pid === pid) fs.rmSync(runtimeFilePath(dataDir), { force: true });
}

export type RuntimeFileState =
  | { state: 'running'; info: RuntimeInfo }
  | { state: 'stale'; info: RuntimeInfo }
  | { state: 'absent' };

/** What the data folder says about a running service. An unreadable file counts as absent. */
export function readRuntimeFile(dataDir: string): RuntimeFileState {
  let info: RuntimeInfo;
  try {
    info = JSON.parse(fs.readFileSync(runtimeFilePath(dataDir), 'utf8')) as RuntimeInfo;
  } catch {
    return { state: 'absent' };
  }
  if (typeof info?.databaseUrl !== 'string' || !Number.isInteger(info.pid)) return { state: 'absent' };
  return { state: isProcessAlive(info.pid) ? 'running' : 'stale', info };
}
