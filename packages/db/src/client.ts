import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/client.ts';

/** Options of {@link createDb}. */
export interface CreateDbOptions {
  /** Largest number of pooled connections (pg's `max`). Default 10. */
  maxConnections?: number;
  /** Milliseconds to wait for a new connection before failing. Default 5000. */
  connectionTimeoutMs?: number;
}

/**
 * A Prisma client on the pg driver adapter (no native engine, works offline).
 *
 * Usage:
 *   const db = createDb(process.env.DATABASE_URL!);
 *   const heroes = await db.hero.findMany();
 */
export function createDb(url: string, options: CreateDbOptions = {}): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
  });
  return new PrismaClient({ adapter });
}
