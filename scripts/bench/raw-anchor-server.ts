/**
 * The raw anchor of GET /heroes, the least a Node server can do for that route: node:http + pg, no framework; per
 * request it hashes the bearer token (sha256, as stored) and runs one query that checks it and lists the heroes
 * (401 for a missing or unknown token). Env: DATABASE_URL, PORT, DB_POOL_SIZE (10, as the resource server).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { loadSettings, SHARED_SETTINGS } from '@heroes/platform/settings';
import { SETTINGS as RESOURCE_SETTINGS } from '@heroes/resource-server/settings';

// The resource server's own entries: the same defaults and checks as the server it is the anchor of.
const settings = loadSettings({ databaseUrl: SHARED_SETTINGS.databaseUrl, port: SHARED_SETTINGS.port, dbPoolSize: RESOURCE_SETTINGS.dbPoolSize }, process.env);
const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: settings.dbPoolSize });
const LIST = `SELECT t.ok, h.id, h.name
  FROM (SELECT EXISTS (SELECT 1 FROM access_tokens WHERE id = $1 AND expires_at > now()) AS ok) t
  LEFT JOIN heroes h ON t.ok ORDER BY h.id`;

const server = http.createServer((req, res) => {
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(req.headers.authorization ?? '');
  if (req.url !== '/heroes' || !match) return send(res, 401, { error: 'unauthorized' });
  const hash = crypto.createHash('sha256').update(match[1]!).digest('hex');
  pool.query<{ ok: boolean; id: number | null; name: string | null }>({ name: 'list', text: LIST, values: [hash] }).then(
    ({ rows }) => {
      if (!rows[0]?.ok) return send(res, 401, { error: 'invalid_token' });
      send(res, 200, rows.filter((row) => row.id !== null).map(({ id, name }) => ({ id, name })));
    },
    () => send(res, 503, { error: 'database unavailable' }),
  );
});

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  res.end(bytes);
}

server.keepAliveTimeout = 65_000;
server.listen(settings.port, '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
