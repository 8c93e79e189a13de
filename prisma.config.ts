// Prisma CLI configuration. Offline by design: Prisma 6's WebAssembly schema
// engine through the pg driver adapter needs no native binary download, so
// `npm install` (prisma generate) and `prisma migrate deploy` work where only
// the npm registry is reachable (docs/operations.md, "Migrations and the
// Prisma version").
import path from 'node:path';
import pg from 'pg';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
import { NameAsTextClient } from './prisma/pg-name-as-text.ts';

// A command that talks to a database (`migrate deploy|status|reset|dev|resolve`, `db ...`) needs
// DATABASE_URL: guessing one could reach an unrelated server as its superuser. Commands that
// never connect (generate, validate, format, migrate diff) still build the adapter, on a
// placeholder URL they never use. `npm run migrate` finds the database itself (embedded or not).
const [command, subcommand] = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const connects = command === 'db' || command === 'studio' || (command === 'migrate' && subcommand !== 'diff');
if (connects && !process.env.DATABASE_URL) {
  console.error(`prisma ${command}${subcommand ? ` ${subcommand}` : ''}: DATABASE_URL is not set; set it to the service's database, or run \`npm run migrate\` (which finds the embedded server itself)`);
  process.exit(1);
}
process.env.DATABASE_URL ??= 'postgresql://placeholder.invalid/unused';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  async adapter() {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, allowExitOnIdle: true, Client: NameAsTextClient });
    // Prisma never unlocks its session advisory lock (pg_advisory_lock(72707369)): it ends with the session. The
    // migration runner (packages/db/src/migrate.ts) sends SIGTERM once Prisma has printed its result, since Prisma
    // 6.19's WebAssembly engine would keep the CLI alive 10 s longer: close every session first (pg's Terminate), so
    // the lock is released on a direct connection and reset by a session pooler, then exit as signalled (at the
    // latest after 5 s, should a connection still be in use: the process's end closes its sockets).
    process.once('SIGTERM', () => {
      setTimeout(() => process.exit(128 + 15), 5_000).unref();
      void pool.end().finally(() => process.exit(128 + 15));
    });
    return new PrismaPg(pool, { disposeExternalPool: true });
  },
});
