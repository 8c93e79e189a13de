import path from 'node:path';

/** The repository's root, where `prisma/` (schema and migrations) and the Prisma CLI are (this file is packages/db/{src,dist}/prisma-folder). */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Folder of the Prisma migrations, each `<name>/migration.sql`. */
export const migrationsDir = path.join(repoRoot, 'prisma', 'migrations');
