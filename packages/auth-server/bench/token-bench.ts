/**
 * Token endpoint throughput against raw bcrypt in one run, the server in-process on a fresh test database: the
 * password grant (10 connections), bcrypt.compare per second at the same cost, and introspection for comparison.
 * Every token request does one compare (the user's password); the client secret is remembered after the first.
 * Usage: DATABASE_URL=… node --import tsx bench/token-bench.ts (BENCH_SECONDS, BENCH_CONNECTIONS, BCRYPT_COST)
 */
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import bcrypt from 'bcrypt';
import { pino } from 'pino';
import { createTestDatabase } from '@heroes/test-kit';
import { basic } from '@heroes/test-kit';
import { createAuthServer, generateKeys } from '../src/index.ts';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 10);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
const cost = Number(process.env['BCRYPT_COST'] ?? 10);

const testDb = await createTestDatabase();
const server = await createAuthServer({
  databaseUrl: testDb.url,
  keys: generateKeys(),
  bcryptCost: cost,
  logger: pino({ level: 'silent' }),
});
try {
  const secretHash = await bcrypt.hash('bench-secret', cost);
  await server.db.oAuthClient.create({ data: { id: 'bench', hashedSecret: secretHash, allowedScopes: ['heroes:read'] } });
  const salt = await bcrypt.genSalt(cost);
  const passwordHash = await bcrypt.hash('bench-password', salt);
  await server.db.user.create({ data: { username: 'bench', usernameKey: 'bench', usernameSkeleton: 'bench', salt, hashedPassword: passwordHash } });
  const { url } = await server.listen(0);

  const body = new URLSearchParams({ grant_type: 'password', username: 'bench', password: 'bench-password' }).toString();
  const authorization = basic('bench', 'bench-secret');
  const check = await fetch(`${url}/auth/token`, { method: 'POST', headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' }, body });
  if (check.status !== 200) throw new Error(`token request failed: ${check.status} ${await check.text()}`);

  const result = await autocannon({
    url: `${url}/auth/token`,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const non2xx = result.non2xx + result.errors;

  // Raw bcrypt: the same number of concurrent compares as connections (libuv pool does the work).
  const bcryptStart = performance.now();
  let compares = 0;
  const deadline = bcryptStart + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < deadline) {
      await bcrypt.compare('bench-password', passwordHash);
      compares += 1;
    }
  }));
  const bcryptPerSecond = compares / ((performance.now() - bcryptStart) / 1000);

  await server.db.oAuthClient.create({ data: { id: 'resource-server', hashedSecret: await bcrypt.hash('rs-secret', cost), allowedScopes: [] } });
  const token = ((await check.json()) as { access_token: string }).access_token;
  const introspection = await autocannon({
    url: `${url}/auth/introspect`,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { authorization: basic('resource-server', 'rs-secret'), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });

  const lines = [
    `token bench: Node ${process.version}, ${availableParallelism()} CPUs, UV_THREADPOOL_SIZE=${process.env['UV_THREADPOOL_SIZE'] ?? '4 (default)'}, bcrypt cost ${cost}`,
    `POST /auth/token (password grant, confidential client): ${result.requests.average.toFixed(1)} req/s average over ${seconds} s, ${connections} connections`,
    `  latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ${result.requests.total} requests, ${non2xx} non-2xx/errors`,
    `raw bcrypt.compare at cost ${cost}: ${bcryptPerSecond.toFixed(1)} compares/s (${connections} concurrent)`,
    `ratio: ${(result.requests.average / bcryptPerSecond).toFixed(2)} token responses per raw bcrypt compare (each token request verifies the user's password once)`,
    `POST /auth/introspect (resource server client, bcrypt-hashed secret): ${introspection.requests.average.toFixed(1)} req/s, p50 ${introspection.latency.p50} ms, ${introspection.non2xx + introspection.errors} non-2xx/errors`,
  ];
  console.log(lines.join('\n'));
} finally {
  await server.close();
  await testDb.drop();
}
