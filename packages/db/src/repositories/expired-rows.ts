/**
 * The purge of expired rows (tokens, codes, provider records, login-throttle rows that refuse nothing, old known
 * addresses, audit events past AUDIT_RETENTION_DAYS, Idempotency-Key answers, DPoP proof ids), run by the
 * authorization server's timer: at most PURGE_BATCH_ROWS rows per statement, taken in the order of the table's expiry
 * index (never a scan of the table), one table and batch at a time, each followed by a pause at least as long as the
 * batch and long enough to hold the WAL written during batches to PURGE_WAL_MB_PER_SECOND (purgePauseMs), so however
 * much expired at once a purge never holds the pool, long locks, a long transaction or its connection more than half
 * of the time, nor dirties pages faster than the server writes them out (docs/operations.md).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PrismaClient } from '../generated/client.ts';

export interface PurgeResult {
  accessTokens: number;
  refreshTokens: number;
  authorizationCodes: number;
  records: number;
  loginThrottles: number;
  knownAddresses: number;
  dpopProofIds: number;
  dpopEdgeProofIds: number;
  auditEvents: number;
  idempotencyKeys: number;
}

export interface PurgeOptions {
  /** Known addresses older than this are forgotten, ms. Default 30 days. */
  knownAddressTtlMs?: number;
  /** Audit events older than this are deleted, ms (AUDIT_RETENTION_DAYS). Default 90 days. */
  auditRetentionMs?: number;
  /** Rows per DELETE. Default PURGE_BATCH_ROWS. */
  batchRows?: number;
  /** WAL per second, bytes, the purge paces its batches to (purgePauseMs). Default PURGE_WAL_BYTES_PER_SECOND. */
  walBytesPerSecond?: number;
  /** Waits `ms` after a full batch (purgePauseMs of `batch`). Default: a timer of that length. */
  pause?: (ms: number, batch: PurgeBatch) => Promise<unknown>;
}

/** One full batch as its pause is computed from it. */
export interface PurgeBatch {
  /** How long its DELETE took, ms. */
  ms: number;
  /** WAL the server wrote meanwhile, bytes (the batch's own, and any other session's). */
  walBytes: number;
}

/** Age after which an idle login-throttle row is forgotten. */
export const THROTTLE_ROW_TTL_MS = 24 * 60 * 60_000;

/** Rows one DELETE removes at most: a few milliseconds of work. */
export const PURGE_BATCH_ROWS = 1_000;

/** WAL per second a purge lets pass (PURGE_WAL_MB_PER_SECOND's default; docs/performance.md, growth). */
export const PURGE_WAL_BYTES_PER_SECOND = 8_000_000;

/**
 * The pause after a full batch, ms: as long as the batch (the requests' turn: the purge holds its connection at most
 * half of the time), and longer when the WAL written meanwhile exceeds `walBytesPerSecond` over batch and pause
 * together. Each deleted row dirties its table page, and the first change to a page after a checkpoint writes the
 * whole page to the WAL; paced by WAL, the checkpointer and background writer keep up, so a request rarely has to
 * write out a dirty page (or flush the WAL before it) to read its own (docs/performance.md, growth).
 */
export function purgePauseMs(batch: PurgeBatch, walBytesPerSecond: number): number {
  return Math.max(batch.ms, (batch.walBytes / walBytesPerSecond) * 1000 - batch.ms);
}

type CutOff = 'now' | 'throttle' | 'knownAddress' | 'audit';

/**
 * What each table loses: a condition on its parameters (UTC timestamps as the columns hold them) and the indexed
 * column a batch is taken in the order of. Without that order PostgreSQL takes a batch by scanning the table from its
 * first page, past every row earlier batches left dead (a purge's cost grew with the square of its rows) and, once
 * nothing is left, through the whole table; in index order a batch reads its rows' pages and little else.
 */
const PURGES: ReadonlyArray<[keyof PurgeResult, string, string, CutOff[], string | undefined]> = [
  ['accessTokens', 'access_tokens', 'expires_at <= $1', ['now'], 'expires_at'],
  ['refreshTokens', 'refresh_tokens', 'expires_at <= $1', ['now'], 'expires_at'],
  ['authorizationCodes', 'authorization_codes', 'expires_at <= $1', ['now'], 'expires_at'],
  ['records', 'oidc_records', 'expires_at <= $1', ['now'], 'expires_at'],
  // No index: a few rows per account and address, a day at most.
  ['loginThrottles', 'login_throttles', 'window_start <= $1 AND (blocked_until IS NULL OR blocked_until <= $2)', ['throttle', 'now'], undefined],
  ['knownAddresses', 'login_known_addresses', 'last_success_at <= $1', ['knownAddress'], 'last_success_at'],
  ['auditEvents', 'audit_events', 'at < $1', ['audit'], 'at'],
  ['idempotencyKeys', 'idempotency_keys', 'expires_at <= $1', ['now'], 'expires_at'],
  // timestamptz (the DPoP claims write it): the UTC cut-off read as UTC whatever the session's time zone
  ['dpopProofIds', 'dpop_proof_ids', "expires_at <= ($1 AT TIME ZONE 'UTC')", ['now'], 'expires_at'],
  ['dpopEdgeProofIds', 'dpop_edge_proof_ids', "expires_at <= ($1 AT TIME ZONE 'UTC')", ['now'], 'expires_at'],
];

/** One purge run. Usage: `const counts = await purgeExpired(db);` */
export async function purgeExpired(
  db: PrismaClient,
  now = new Date(),
  {
    knownAddressTtlMs = 30 * 86_400_000,
    auditRetentionMs = 90 * 86_400_000,
    batchRows = PURGE_BATCH_ROWS,
    walBytesPerSecond = PURGE_WAL_BYTES_PER_SECOND,
    pause = (ms: number) => sleep(ms),
  }: PurgeOptions = {},
): Promise<PurgeResult> {
  const cutOffs: Record<CutOff, string> = {
    now: utcTimestamp(now),
    throttle: utcTimestamp(new Date(now.getTime() - THROTTLE_ROW_TTL_MS)),
    knownAddress: utcTimestamp(new Date(now.getTime() - knownAddressTtlMs)),
    audit: utcTimestamp(new Date(now.getTime() - auditRetentionMs)),
  };
  const result = {} as PurgeResult;
  for (const [name, table, condition, parameters, order] of PURGES) {
    const where = condition.replace(/\$(\d)/g, (_, n: string) => `$${n}::timestamp(3)`);
    // The row addresses of one batch, then those rows: no long scan, no lock beyond the batch. With the WAL position
    // once they are gone (pg_current_wal_insert_lsn: what the server has written, its own sessions' and the purge's).
    const batch = `SELECT ctid FROM ${table} WHERE ${where}${order ? ` ORDER BY ${order}` : ''} LIMIT ${batchRows}`;
    const sql = `WITH gone AS (DELETE FROM ${table} WHERE ctid = ANY (ARRAY(${batch})) RETURNING 1)
      SELECT count(*)::int AS count, pg_current_wal_insert_lsn()::text AS lsn FROM gone`;
    const values = parameters.map((cutOff) => cutOffs[cutOff]);
    let deleted = 0;
    for (;;) {
      const before = await walPosition(db);
      const started = performance.now();
      const [row] = await db.$queryRawUnsafe<Array<{ count: number; lsn: string }>>(sql, ...values);
      const ms = performance.now() - started;
      const count = row!.count;
      deleted += count;
      if (count < batchRows) break;
      const done = { ms, walBytes: Number(lsnBytes(row!.lsn) - before) };
      await pause(purgePauseMs(done, walBytesPerSecond), done);
    }
    result[name] = deleted;
  }
  return result;
}

/** The server's WAL insert position, bytes. */
async function walPosition(db: PrismaClient): Promise<bigint> {
  const [row] = await db.$queryRawUnsafe<Array<{ lsn: string }>>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  return lsnBytes(row!.lsn);
}

/** A pg_lsn's text (`16/B374D848`: the high and low 32 bits in hex) as a byte position. */
function lsnBytes(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** `date` as TIMESTAMP(3) text in UTC (the columns hold UTC without a zone, as Prisma writes them). */
function utcTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
