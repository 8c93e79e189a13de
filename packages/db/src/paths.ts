import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSettings, SHARED_SETTINGS, type Env } from '@heroes/platform/settings';

/** The repository root (this file is packages/db/src/paths.ts). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Folder of the Prisma migrations, each `<name>/migration.sql`. */
export const migrationsDir = path.join(repoRoot, 'prisma', 'migrations');

/**
 * Where local state (the embedded PostgreSQL cluster, generated keys and
 * secrets) is kept: HEROES_DATA_DIR (its entry in @heroes/platform's
 * SHARED_SETTINGS), else `<repo>/.data` (ignored by git).
 * The one place that decides it. Always absolute (a relative
 * HEROES_DATA_DIR is taken from the current folder), so messages name the
 * real folder.
 */
export function resolveDataDir(env: Env = process.env): string {
  // Read through the catalogue's entry; a value it refuses (blank) is one problem line of the settings check of each process that lists it.
  return dataDirFrom(readSettings({ dataDir: SHARED_SETTINGS.dataDir }, env).values.dataDir);
}

/** The data folder for HEROES_DATA_DIR's parsed value (undefined: unset), for a settings table's computed default. */
export function dataDirFrom(given: string | undefined): string {
  return path.resolve(given ?? path.join(repoRoot, '.data'));
}

/** resolveDataDir() of this process's environment. */
export const dataDir = resolveDataDir();
