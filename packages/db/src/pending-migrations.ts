/**
 * Whether the database may lack a migration, in one query, so `npm start` runs the migration command only when
 * needed: "nothing pending" needs every folder of prisma/migrations recorded as finished, not rolled back, with the
 * checksum of its migration.sql on disk, and no failed attempt. Anything else (a query error included) answers true.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrationsDir } from './prisma-folder.ts';

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export async function hasPendingMigrations(url: string, folder = migrationsDir): Promise<boolean> {
  const wanted = migrationChecksums(folder);
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<AppliedRow>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations');
    return !nothingPending(wanted, rows);
  } catch {
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The rule itself, on the folder's checksums and the table's rows. */
function nothingPending(wanted: Map<string, string>, rows: AppliedRow[]): boolean {
  const live = rows.filter((row) => row.rolled_back_at === null);
  if (live.some((row) => row.finished_at === null)) return false; // a failed migration: the command reports it
  const applied = new Map(live.map((row) => [row.migration_name, row.checksum]));
  return [...wanted].every(([name, checksum]) => applied.get(name) === checksum);
}

/** migration name → sha256 (hex) of its migration.sql, as Prisma records it. */
function migrationChecksums(folder: string): Map<string, string> {
  const checksums = new Map<string, string>();
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = path.join(folder, entry.name, 'migration.sql');
    if (!fs.existsSync(file)) continue;
    checksums.set(entry.name, crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
  }
  return checksums;
}
