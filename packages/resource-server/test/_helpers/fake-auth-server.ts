/**
 * A stand-in for the introspection endpoint, for unit tests of the guard and cache only (e2e tests use the real
 * one): `tokens` maps a token to its answer (unknown → inactive), calls counted, `delayMs` slows answers, other paths
 * echo the request; an active token without `aud` names every edge of this process (EDGE_AUDIENCES), as the real one.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The resource identifiers of the edges this test process started. */
export const EDGE_AUDIENCES = new Set<string>();

export interface FakeAuthServer {
  url: string;
  tokens: Map<string, Record<string, unknown>>;
  calls: number;
  callsByToken: Map<string, number>;
  delayMs: number;
  lastAuthorization?: string;
  close(): Promise<void>;
}

export async function startFakeAuthServer(expectedAuthorization?: string): Promise<FakeAuthServer> {
  const state: FakeAuthServer = {
    url: '',
    tokens: new Map(),
    calls: 0,
    callsByToken: new Map(),
    delayMs: 0,
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/auth/introspect' && req.method === 'POST') {
        state.calls++;
        state.lastAuthorization = req.headers.authorization;
        setTimeout(() => {
          if (expectedAuthorization && req.headers.authorization !== expectedAuthorization) {
            res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
            return;
          }
          const token = new URLSearchParams(body).get('token') ?? '';
          state.callsByToken.set(token, (state.callsByToken.get(token) ?? 0) + 1);
          res.writeHead(200, { 'content-type': 'application/json' });
          const record = state.tokens.get(token) ?? { active: false };
          res.end(JSON.stringify(record['active'] === true && !('aud' in record) ? { ...record, aud: [...EDGE_AUDIENCES] } : record));
        }, state.delayMs);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'fake=1; Path=/auth' });
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}

/** An active bearer token body granting both hero scopes (override `scope` to change), `exp` seconds from now. */
export function activeToken(extra: Record<string, unknown> = {}, expiresIn = 3600): Record<string, unknown> {
  return {
    active: true,
    client_id: 'test-client',
    username: 'bob',
    sub: '1',
    token_type: 'Bearer',
    scope: 'heroes:read heroes:write',
    exp: Math.floor(Date.now() / 1000) + expiresIn,
    ...extra,
  };
}
