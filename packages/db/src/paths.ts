import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is packages/db/src/paths.ts). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Folder of the Prisma migrations, each `<name>/migration.sql`. */
export const migrationsDir = path.join(repoRoot, 'prisma', 'migrations');

/** Where local state (the embedded PostgreSQL cluster, generated keys) is kept; ignored by git. */
export const dataDir = process.env.HEROES_DATA_DIR ?? path.join(repoRoot, '.data');
