/**
 * The row shape oidc-provider's stored models share (token tables and oidc_records): a jsonb payload and two
 * timestamps. The columns are TIMESTAMP(3) holding UTC, as Prisma writes them: read as epoch milliseconds
 * (pg alone would read them as local time) and written from epoch milliseconds, whatever the process's time zone.
 */
import type { Prisma } from '../generated/client.ts';
import type { Queryable } from '../sql-pool.ts';

export interface StoredRow {
  payload: Prisma.JsonValue;
  expiresAt: Date | null;
  consumedAt: Date | null;
}

/** The current time as the TIMESTAMP(3) columns hold it: UTC, whatever the session's time zone. */
export const UTC_NOW = "(now() AT TIME ZONE 'UTC')";

export const READ_TIMES = `(extract(epoch FROM expires_at) * 1000)::float8 AS expires_ms, (extract(epoch FROM consumed_at) * 1000)::float8 AS consumed_ms`;

/** `$n` (epoch ms or null) as a UTC TIMESTAMP(3). */
export const utcFromMs = (n: number) => `CASE WHEN $${n}::float8 IS NULL THEN NULL ELSE to_timestamp($${n}::float8 / 1000) AT TIME ZONE 'UTC' END`;

export function toStoredRow(row: { [column: string]: unknown }): StoredRow {
  const expires = row['expires_ms'] as number | null;
  const consumed = row['consumed_ms'] as number | null;
  return { payload: row['payload'] as Prisma.JsonValue, expiresAt: expires === null ? null : new Date(expires), consumedAt: consumed === null ? null : new Date(consumed) };
}

/** Wraps the Queryable of a one-statement change so the statement also writes an audit event (audit-events.ts). */
export type RecordWith = (db: Queryable) => Queryable;

export const unrecorded: RecordWith = (db) => db;
