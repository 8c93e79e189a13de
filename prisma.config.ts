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
    return new PrismaPg(pool, { disposeExternalPool: true });
  },
});
