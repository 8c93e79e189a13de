/**
 * The one rule for a query's time limit on every pooled connection (DB_QUERY_TIMEOUT_MS): PostgreSQL enforces it
 * (`statement_timeout`, `lock_timeout` as startup parameters: cancelled and rolled back, so a 503 means nothing was
 * written); pg's `query_timeout`, CLIENT_GRACE_MS longer, only catches a dead network (shorter, the client would give
 * up while the statement ran on and committed). Usage: new pg.Pool({ connectionString, ...queryTimeouts(3_000) })
 */
export const CLIENT_GRACE_MS = 1_000;

export interface QueryTimeouts {
  statement_timeout: number;
  lock_timeout: number;
  query_timeout: number;
}

export function queryTimeouts(queryTimeoutMs: number): QueryTimeouts {
  return { statement_timeout: queryTimeoutMs, lock_timeout: queryTimeoutMs, query_timeout: queryTimeoutMs + CLIENT_GRACE_MS };
}
