/**
 * Everything an access-token introspection needs in one query of primary-key look-ups: the caller's stored secret
 * hash, the token row (by its sha256 id), its grant record and whether the token's client still exists. Timestamps as
 * epoch milliseconds (TIMESTAMP(3) columns hold UTC, stored-rows.ts).
 */
import { sqlPool } from '../client-pools.ts';
import type { PrismaClient } from '../generated/client.ts';

export interface IntrospectionRow {
  /** The caller's bcrypt hash; null for a public client. */
  callerHashedSecret: string | null;
  /** The token row, when there is one. */
  token?: {
    clientId: string;
    payload: Record<string, unknown>;
    expiresMs: number;
    consumed: boolean;
    clientExists: boolean;
  };
  /** The token's grant record, when the token names one and it exists. */
  grant?: { payload: Record<string, unknown>; expiresMs: number | null };
}

const SQL = `SELECT c.hashed_secret,
  t.client_id, t.payload, (extract(epoch FROM t.expires_at) * 1000)::float8 AS expires_ms, t.consumed_at IS NOT NULL AS consumed,
  EXISTS (SELECT 1 FROM oauth_clients tc WHERE tc.id = t.client_id) AS client_exists,
  g.payload AS grant_payload, (extract(epoch FROM g.expires_at) * 1000)::float8 AS grant_expires_ms
FROM oauth_clients c
LEFT JOIN access_tokens t ON t.id = $2
LEFT JOIN oidc_records g ON g.model = 'Grant' AND g.id = t.grant_id
WHERE c.id = $1`;

interface RawRow {
  hashed_secret: string | null;
  client_id: string | null;
  payload: Record<string, unknown> | null;
  expires_ms: number | null;
  consumed: boolean | null;
  client_exists: boolean;
  grant_payload: Record<string, unknown> | null;
  grant_expires_ms: number | null;
}

/** undefined when the calling client does not exist; `tokenHash`: the access token's row id. */
export async function readIntrospectionRow(db: PrismaClient, callerId: string, tokenHash: string): Promise<IntrospectionRow | undefined> {
  const { rows } = await sqlPool(db).query<RawRow>({ name: 'fast-introspection', text: SQL, values: [callerId, tokenHash] });
  const row = rows[0];
  if (!row) return undefined;
  const result: IntrospectionRow = { callerHashedSecret: row.hashed_secret };
  if (row.client_id !== null && row.payload !== null && row.expires_ms !== null) {
    result.token = { clientId: row.client_id, payload: row.payload, expiresMs: row.expires_ms, consumed: row.consumed === true, clientExists: row.client_exists };
  }
  if (row.grant_payload !== null) result.grant = { payload: row.grant_payload, expiresMs: row.grant_expires_ms };
  return result;
}
