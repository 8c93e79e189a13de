/**
 * The resource server's own confidential client row, used for introspection: created when missing (no redirect
 * URI, no scopes, bcrypt hash); the hash replaced only when it does not verify the configured secret (restarts do
 * not churn it); a lost create race retried once; each change writes its audit event in the same statement.
 */
import bcrypt from 'bcrypt';
import { auditedQueryable, auditLogRecord, clientSecretHash, insertIntrospectionClient, replaceClientSecret, type AuditEvent } from '@heroes/db/pg';
import type { Logger } from 'pino';
import type { Database } from '../data/create-pool.ts';

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
  const stored = await clientSecretHash(db, id);
  if (stored && (await bcrypt.compare(clientSecret, stored))) return 'unchanged';
  const hashedSecret = await bcrypt.hash(clientSecret, bcryptCost);
  if (stored !== undefined) {
    const rotated: AuditEvent = { type: 'client.secret_rotated', clientId: id, reason: 'RESOURCE_SERVER_CLIENT_SECRET changed (resource server start)' };
    await replaceClientSecret(auditedQueryable(db, rotated), id, hashedSecret);
    logged(rotated);
    return 'updated';
  }
  try {
    const added: AuditEvent = { type: 'client.added', clientId: id, reason: 'built-in client (resource server start)' };
    await insertIntrospectionClient(auditedQueryable(db, added), id, hashedSecret);
    logged(added);
    return 'created';
  } catch (err) {
    if (retry && (err as { code?: string }).code === UNIQUE_VIOLATION) return ensureClient(db, options, false);
    throw err;
  }
}
