/**
 * Where Prisma's files are: the repository's root (the schema, prisma.config.ts and the Prisma CLI) and the
 * migrations folder.
 */
import path from 'node:path';

/** The repository's root, where `prisma/` (schema and migrations) and the Prisma CLI are (this file is packages/db/{src,dist}/prisma-folder). */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Folder of the Prisma migrations, each `<name>/migration.sql`. */
export const migrationsDir = path.join(repoRoot, 'prisma', 'migrations');
