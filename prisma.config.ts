// Prisma CLI configuration. Offline by design: the JavaScript engine with the
// pg driver adapter needs no native binary download, so `npm install` works
// where only the npm registry is reachable.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// Commands that never connect (generate, validate, migrate diff) still build the adapter.
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL, allowExitOnIdle: true });
  },
});
