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

// Commands that never connect (generate, validate, migrate diff) still build the adapter.
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';

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
