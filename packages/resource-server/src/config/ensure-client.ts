/**
 * The resource server's own confidential OAuth client row (oauth_clients),
 * which it uses to authenticate to the introspection endpoint.
 * - created when missing: no redirect URI, no scopes, bcrypt-hashed secret.
 * - the hash is replaced only when the stored one does not verify the
 *   configured secret, so restarts do not churn the row.
 * - two processes starting together: a lost create race is retried once.
 */
import bcrypt from 'bcrypt';
import type { PrismaClient } from '@heroes/db';

export type EnsureClientResult = 'created' | 'updated' | 'unchanged';

/**
 * Usage:
 *   await ensureClient(db, { clientId: 'resource-server', clientSecret, bcryptCost: 10 });
 */
export async function ensureClient(
  db: PrismaClient,
  options: { clientId: string; clientSecret: string; bcryptCost: number },
  retry = true,
): Promise<EnsureClientResult> {
  const { clientId: id, clientSecret, bcryptCost } = options;
  const existing = await db.oAuthClient.findUnique({ where: { id }, select: { hashedSecret: true } });
  if (existing?.hashedSecret && (await bcrypt.compare(clientSecret, existing.hashedSecret))) return 'unchanged';
  const hashedSecret = await bcrypt.hash(clientSecret, bcryptCost);
  if (existing) {
    await db.oAuthClient.update({ where: { id }, data: { hashedSecret } });
    return 'updated';
  }
  try {
    await db.oAuthClient.create({ data: { id, hashedSecret } });
    return 'created';
  } catch (err) {
    if (retry && (err as { code?: string }).code === 'P2002') return ensureClient(db, options, false);
    throw err;
  }
}
