/**
 * The resource server's own confidential client row, used for introspection: created when missing (no redirect
 * URI, no scopes, bcrypt hash); the hash replaced only when it does not verify the configured secret (restarts do
 * not churn it); a lost create race retried once; each change writes its audit event in the same statement.
 */
import bcrypt from 'bcrypt';
import { auditLogRecord, withAuditEvent, type AuditEvent } from '@heroes/db';
import type { Logger } from 'pino';
import { UTC_NOW, type Database } from '../data/create-pool.ts';

/** SQLSTATE of a unique violation: another replica created the row first. */
const UNIQUE_VIOLATION = '23505';

export type EnsureClientResult = 'created' | 'updated' | 'unchanged';

/**
 * Usage:
 *   await ensureClient(db, { clientId: 'resource-server', clientSecret, bcryptCost: 10 });
 */
export async function ensureClient(
  db: Database,
  options: { clientId: string; clientSecret: string; bcryptCost: number; logger?: Logger | undefined },
  retry = true,
): Promise<EnsureClientResult> {
  const { clientId: id, clientSecret, bcryptCost } = options;
  const logged = (event: AuditEvent) => options.logger?.info({ audit: auditLogRecord(event) }, 'audit event');
  const { rows } = await db.query<{ hashed_secret: string | null }>({ text: 'SELECT hashed_secret FROM oauth_clients WHERE id = $1', values: [id] });
  const existing = rows[0] && { hashedSecret: rows[0].hashed_secret };
  if (existing?.hashedSecret && (await bcrypt.compare(clientSecret, existing.hashedSecret))) return 'unchanged';
  const hashedSecret = await bcrypt.hash(clientSecret, bcryptCost);
  if (existing) {
    const rotated: AuditEvent = { type: 'client.secret_rotated', clientId: id, reason: 'RESOURCE_SERVER_CLIENT_SECRET changed (resource server start)' };
    await db.query(withAuditEvent(
      { text: `UPDATE oauth_clients SET hashed_secret = $2, updated_at = ${UTC_NOW} WHERE id = $1`, values: [id, hashedSecret] },
      rotated,
    ));
    logged(rotated);
    return 'updated';
  }
  try {
    const added: AuditEvent = { type: 'client.added', clientId: id, reason: 'built-in client (resource server start)' };
    await db.query(withAuditEvent({
      text: `INSERT INTO oauth_clients (id, hashed_secret, created_at, updated_at) VALUES ($1, $2, ${UTC_NOW}, ${UTC_NOW})`,
      values: [id, hashedSecret],
    }, added));
    logged(added);
    return 'created';
  } catch (err) {
    if (retry && (err as { code?: string }).code === UNIQUE_VIOLATION) return ensureClient(db, options, false);
    throw err;
  }
}
