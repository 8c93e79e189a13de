/**
 * The running stack's runtime file, `$HEROES_DATA_DIR/running.json` (0600: the URL carries a password), written by
 * `npm start` once it knows its database and removed when it stops, so the `auth` CLI finds the running service's
 * database instead of guessing. Written by rename (never half-written); a file whose process is gone counts as absent.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from './process-alive.ts';

const RUNTIME_FILE_NAME = 'running.json';

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
