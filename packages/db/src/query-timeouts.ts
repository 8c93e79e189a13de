/**
 * The one rule for a query's time limit on every pooled connection of both
 * servers (DB_QUERY_TIMEOUT_MS): PostgreSQL enforces it, pg only backs it up.
 *
 * - `statement_timeout` and `lock_timeout` (startup parameters of each
 *   connection): the server cancels the statement and rolls its transaction
 *   back (SQLSTATE 57014 / 55P03, answered 503 `timed out connection to
 *   database`), so a 503 means nothing was written and no backend keeps
 *   running for a request already answered;
 * - pg's client-side `query_timeout`, CLIENT_GRACE_MS longer: the net for a
 *   dead network or a hung server that cannot even cancel (the connection is
 *   dropped then). Without the grace the client would give up first and the
 *   statement would go on running (and commit) on the server.
 *
 * Usage:
 *   new pg.Pool({ connectionString, ...queryTimeouts(3_000) });
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
