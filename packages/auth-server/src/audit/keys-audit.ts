/**
 * keys.rotated: written once per new signing key, by `auth keys rotate`
 * when it reaches the database and by each replica that loads the key
 * (library/signing-keys.ts); the first write wins (@heroes/db's
 * insertKeysRotatedOnce), the reason names the key id.
 */
import { auditLogRecord, insertKeysRotatedOnce, type AuditEvent, type Queryable } from '@heroes/db';
import type { Logger } from 'pino';

function keysRotatedEvent(kid: string): AuditEvent & { type: 'keys.rotated'; reason: string } {
  return { type: 'keys.rotated', reason: `new signing key ${kid}` };
}

/** Records the rotation unless recorded already; logs it when this call wrote it. */
export async function recordKeysRotated(db: Queryable, kid: string, logger?: Logger): Promise<boolean> {
  const event = keysRotatedEvent(kid);
  const written = await insertKeysRotatedOnce(db, event);
  if (written) logger?.info({ audit: auditLogRecord(event) }, 'audit event');
  return written;
}
