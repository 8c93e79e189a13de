/**
 * A short-lived token stops working at its expiry even though the
 * resource server's cache TTL (60 s by default) is much longer. The wait
 * is computed from the token's own expiry (no fixed sleep racing with a
 * loaded machine), and the lifetime leaves room for the first request.
 */
import test from 'ava';
import { createDb } from '@heroes/db';
import { createTestDatabase } from '@heroes/test-kit';
import { waitFor } from '@heroes/test-kit';
import { bearer, request } from '../_helpers/http.ts';
import { addClient, passwordToken } from '../_helpers/oauth.ts';
import { freePort, startAuthProcess, startResourceProcess } from '../_helpers/processes.ts';

const TTL_SECONDS = 8;

test('an expired token → 401 invalid_token', async (t) => {
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const authPort = await freePort();
  const auth = await startAuthProcess(database.url, authPort, `http://127.0.0.1:${authPort}`, { ACCESS_TOKEN_TTL: String(TTL_SECONDS) });
  // One public base URL for the service: the issuer, and the audience (RFC 8707) the edge checks.
  const edge = await startResourceProcess(database.url, await freePort(), auth.url, { PUBLIC_BASE_URL: `http://127.0.0.1:${authPort}` });
  try {
    await addClient(db, { id: 'short', secret: 'short-secret' });
    await request(`${edge.url}/register`, { method: 'POST', json: { username: 'eve', password: 'eve password' } });
    // One introspection first, so the edge's own client secret (a slow bcrypt compare on a loaded machine)
    // is verified before the short-lived token exists.
    t.is((await request(`${edge.url}/heroes`, { headers: bearer('x'.repeat(43)) })).status, 401);
    const askedAt = Date.now();
    const token = await passwordToken(edge.url, { id: 'short', secret: 'short-secret' }, 'eve', 'eve password');
    t.true(token.expires_in <= TTL_SECONDS);
    const expiresAt = askedAt + token.expires_in * 1000;
    t.is((await request(`${edge.url}/heroes`, { headers: bearer(token.access_token) })).status, 200, 'cached as active');
    // Past the expiry (exp has one-second resolution), whatever the load.
    await waitFor(() => Date.now() > expiresAt + 1_100, { intervalMs: 100 });
    const res = await request(`${edge.url}/heroes`, { headers: bearer(token.access_token) });
    t.is(res.status, 401);
    t.deepEqual(res.body, { error: 'invalid_token' });
  } finally {
    await edge.stop();
    await auth.stop();
    await db.$disconnect();
    await database.drop();
  }
});
