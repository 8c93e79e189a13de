import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is packages/db/src/paths.ts). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Folder of the Prisma migrations, each `<name>/migration.sql`. */
export const migrationsDir = path.join(repoRoot, 'prisma', 'migrations');

/**
 * Where local state (the embedded PostgreSQL cluster, generated keys and
 * secrets) is kept: HEROES_DATA_DIR, else `<repo>/.data` (ignored by git).
 * The one place that decides it. Always absolute (a relative
 * HEROES_DATA_DIR is taken from the current folder), so messages name the
 * real folder.
 */
export function resolveDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path.resolve(env['HEROES_DATA_DIR'] || path.join(repoRoot, '.data'));
}

/** resolveDataDir() of this process's environment. */
export const dataDir = resolveDataDir();
