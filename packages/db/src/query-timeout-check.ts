/**
 * The start-time check of the query time limits: each server reads the effective `statement_timeout` and
 * `lock_timeout` on a pooled connection; a pooler that drops startup parameters leaves other values, and then a 503
 * might not mean nothing was written, so the server says so in one line and stays not-ready (docs/operations.md,
 * "Connection poolers"). Usage: createHealth({ checks: { queryTimeouts: () => timeouts.ready() } })
 */
import type { Queryable } from './sql-pool.ts';

export interface QueryTimeoutCheckOptions {
  expectedMs: number;
  /** The pool (for a PrismaClient: sqlPool(db)). */
  db: Queryable;
  /** A pino logger, or anything with its error(object, message). */
  logger: { error(details: object, message: string): void };
}

export interface QueryTimeoutCheck {
  /** True once a connection showed both limits at expectedMs; false while unknown (no answer yet) or different. */
  ready(): Promise<boolean>;
}

/** pg_settings gives both in milliseconds, whatever unit they were set in. */
const EFFECTIVE_LIMITS = "SELECT name, setting FROM pg_settings WHERE name IN ('statement_timeout', 'lock_timeout') ORDER BY name DESC";

/** The one line for limits that differ (undefined when both are expectedMs). */
export function queryTimeoutProblem(rows: ReadonlyArray<Record<string, unknown>>, expectedMs: number): string | undefined {
  const wrong = rows.filter((row) => Number(row['setting']) !== expectedMs).map((row) => `${String(row['name'])} = ${String(row['setting'])} ms`);
  if (rows.length === 2 && wrong.length === 0) return undefined;
  return `the database connections run with ${wrong.join(' and ') || 'unknown time limits'}, not DB_QUERY_TIMEOUT_MS (${expectedMs} ms): a pooler dropped the limits sent at connection start, so set both on the role or database (ALTER ROLE <user> SET statement_timeout = ${expectedMs}; the same for lock_timeout) or change DB_QUERY_TIMEOUT_MS; not ready until then (docs/operations.md, "Connection poolers")`;
}

export function createQueryTimeoutCheck(options: QueryTimeoutCheckOptions): QueryTimeoutCheck {
  let verdict: boolean | undefined;
  let running: Promise<boolean> | undefined;

  async function read(): Promise<boolean> {
    const { rows } = await options.db.query({ name: 'effective-time-limits', text: EFFECTIVE_LIMITS, values: [] });
    const problem = queryTimeoutProblem(rows, options.expectedMs);
    if (problem) options.logger.error({ expectedMs: options.expectedMs, effective: rows }, problem);
    verdict = problem === undefined;
    return verdict;
  }

  return {
    ready() {
      if (verdict !== undefined) return Promise.resolve(verdict);
      // No answer (the database is down): unknown, asked again by the next probe.
      running ??= read().catch(() => false).finally(() => (running = undefined));
      return running;
    },
  };
}

/** A round trip to the database (readiness): resolves when it answered. */
export async function ping(db: Queryable): Promise<void> {
  await db.query({ name: 'ping', text: 'SELECT 1', values: [] });
}
