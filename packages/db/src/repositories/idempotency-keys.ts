/**
 * The `idempotency_keys` table shared by every replica (routes/idempotency/create-once.ts uses it): find() the
 * stored answer unless expired; lock() a transaction-scoped advisory lock on (scope, key) without waiting (nothing
 * stays held if a replica dies; works through a transaction pooler); record() in the create's own transaction.
 */
import type { Query } from '../sql-pool.ts';

export interface StoredAnswer {
  fingerprint: string;
  status: number;
  /** The JSON body as sent. */
  response: string;
}

export interface KeyedRequest {
  scope: string;
  key: string;
}

const IDEMPOTENCY_SQL = {
  find: `SELECT fingerprint, status, response FROM idempotency_keys
    WHERE scope = $1 AND key = $2 AND expires_at > (now() AT TIME ZONE 'UTC')`,
  lock: 'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
  record: `INSERT INTO idempotency_keys (scope, key, fingerprint, status, response, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC') + make_interval(secs => $6))
    ON CONFLICT (scope, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status,
      response = EXCLUDED.response, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
    WHERE idempotency_keys.expires_at <= (now() AT TIME ZONE 'UTC')`,
} as const;

export async function findAnswer(query: Query, { scope, key }: KeyedRequest): Promise<StoredAnswer | undefined> {
  const { rows } = await query<StoredAnswer>({ name: 'idempotency-find', text: IDEMPOTENCY_SQL.find, values: [scope, key] });
  return rows[0];
}

export async function lockKey(query: Query, { scope, key }: KeyedRequest): Promise<boolean> {
  // One lock name for the pair; a hash collision with another pair only makes one of them wait its turn (409).
  const { rows } = await query<{ locked: boolean }>({ name: 'idempotency-lock', text: IDEMPOTENCY_SQL.lock, values: [`${scope}\n${key}`] });
  return rows[0]!.locked;
}

export async function recordAnswer(query: Query, request: KeyedRequest, answer: StoredAnswer, keepSeconds: number): Promise<void> {
  await query({
    name: 'idempotency-record',
    text: IDEMPOTENCY_SQL.record,
    values: [request.scope, request.key, answer.fingerprint, answer.status, answer.response, keepSeconds],
  });
}
