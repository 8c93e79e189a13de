/**
 * Without RESOURCE_SERVER_CLIENT_SECRET, resource-server processes generate
 * one secret into <data dir>/resource-server-secret (0600), share it, and
 * introspect with it against the real authorization server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { createDb } from '@heroes/db';
import { createTestDatabase } from '@heroes/test-kit';
import { bearer, request } from '../_helpers/http.ts';
import { addClient, passwordToken } from '../_helpers/oauth.ts';
import { freePort, startAuthProcess, startResourceProcess } from '../_helpers/processes.ts';

test('two processes share the generated secret and both can introspect', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-data-'));
  const database = await createTestDatabase();
  const db = createDb(database.url);
  const authPort = await freePort();
  const auth = await startAuthProcess(database.url, authPort, `http://127.0.0.1:${authPort}`, { HEROES_DATA_DIR: dataDir });
  // Replicas of one public base URL: the issuer, and the audience (RFC 8707) both check.
  const env = { RESOURCE_SERVER_CLIENT_SECRET: '', HEROES_DATA_DIR: dataDir, PUBLIC_BASE_URL: `http://127.0.0.1:${authPort}` };
  const edges = await Promise.all([0, 1].map(async () => startResourceProcess(database.url, await freePort(), auth.url, env)));
  try {
    const file = path.join(dataDir, 'resource-server-secret');
    t.is(fs.statSync(file).mode & 0o777, 0o600);
    await addClient(db, { id: 'app', secret: 'app-secret' });
    await request(`${edges[0]!.url}/register`, { method: 'POST', json: { username: 'gen', password: 'gen password' } });
    const token = await passwordToken(auth.url, { id: 'app', secret: 'app-secret' }, 'gen', 'gen password');
    for (const edge of edges) t.is((await request(`${edge.url}/heroes`, { headers: bearer(token.access_token) })).status, 200);
  } finally {
    await Promise.all(edges.map((edge) => edge.stop()));
    await auth.stop();
    await db.$disconnect();
    await database.drop();
  }
});
