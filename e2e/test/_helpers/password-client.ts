/**
 * A public client registered for the password grant, for tests that only
 * need a token: the built-in browser client (tour-of-heroes) may use the
 * code flow only (docs/oauth.md, "Grant types per client").
 *
 * Usage: `await registerPasswordClient(database.url);` then `passwordToken(edge, { id: PASSWORD_CLIENT_ID }, …)`
 */
import { createDb } from '@heroes/db';
import { addClient } from '@heroes/test-kit';

export const PASSWORD_CLIENT_ID = 'e2e-password-client';

export async function registerPasswordClient(databaseUrl: string): Promise<void> {
  const db = createDb(databaseUrl);
  try {
    await addClient(db, { id: PASSWORD_CLIENT_ID });
  } finally {
    await db.$disconnect();
  }
}
