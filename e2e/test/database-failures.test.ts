/**
 * A database failure is never a 500, on every route (the class, not one reproduction): both servers run as a
 * role that loses its table privileges once they are up, so every statement they send fails with a SQLSTATE no
 * rule names (42501, as a pooler that lost a prepared statement answers 26000). Every route that reaches the
 * database answers 503 `database error` (or `temporarily_unavailable` at the OAuth endpoints) with Retry-After,
 * and once the privileges are back everything works again.
 */
import crypto from 'node:crypto';
import test from 'ava';
import pg from 'pg';
import { adminUrl, createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { basic, passwordToken } from '@heroes/test-kit';
import { startInProcessStack, type InProcessStack } from './_helpers/in-process-stack.ts';
import { PASSWORD_CLIENT_ID, registerPasswordClient } from './_helpers/password-client.ts';

const role = `heroes_failing_${crypto.randomBytes(4).toString('hex')}`;
let database: TestDatabase;
let admin: pg.Client;
let stack: InProcessStack | undefined;

const privileges = (verb: 'GRANT' | 'REVOKE') => verb === 'GRANT'
  ? `GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}; GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`
  : `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${role}; REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${role}`;

test.before(async () => {
  database = await createTestDatabase();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`CREATE ROLE ${role} LOGIN`);
  await admin.query(privileges('GRANT'));
  await registerPasswordClient(database.url);
  const url = new URL(database.url);
  url.username = role;
  url.password = '';
  stack = await startInProcessStack(url.toString());
});

test.after.always(async () => {
  await stack?.close();
  await admin?.end();
  await database?.drop();
  const server = new pg.Client({ connectionString: adminUrl() });
  await server.connect();
  await server.query(`DROP ROLE IF EXISTS ${role}`);
  await server.end();
});

test.serial('every route that reaches the database answers 503 with Retry-After, never 500, while every statement fails', async (t) => {
  const edge = stack!.edge;
  const registered = await fetch(`${edge}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'failing-user', password: 'failing-password-1' }) });
  t.is(registered.status, 200);
  const { access_token: token } = await passwordToken(edge, { id: PASSWORD_CLIENT_ID }, 'failing-user', 'failing-password-1');
  const created = await fetch(`${edge}/heroes`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Before the failure' }) });
  const { id } = (await created.json()) as { id: number };

  await admin.query(privileges('REVOKE'));
  const bearer = { authorization: `Bearer ${token}` };
  const json = { 'content-type': 'application/json' };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const requests: Array<[string, string, RequestInit]> = [
    ['POST /register', '/register', { method: 'POST', headers: json, body: JSON.stringify({ username: 'another-user', password: 'failing-password-2' }) }],
    ['POST /auth/token (password)', '/auth/token', { method: 'POST', headers: form, body: `grant_type=password&client_id=${PASSWORD_CLIENT_ID}&username=failing-user&password=failing-password-1` }],
    ['POST /auth/token (unknown client)', '/auth/token', { method: 'POST', headers: { ...form, authorization: basic('nobody', 'secret') }, body: 'grant_type=password&username=a&password=b' }],
    ['POST /auth/revoke', '/auth/revoke', { method: 'POST', headers: form, body: `client_id=${PASSWORD_CLIENT_ID}&token=${token}` }],
    ['GET /auth/code', '/auth/code?response_type=code&client_id=tour-of-heroes&state=s&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256', { headers: { accept: 'text/html' } }],
    ['GET /heroes', '/heroes', { headers: bearer }],
    ['GET /heroes?name=', '/heroes?name=fail', { headers: bearer }],
    ['GET /heroes/:id', `/heroes/${id}`, { headers: bearer }],
    ['POST /heroes', '/heroes', { method: 'POST', headers: { ...bearer, ...json }, body: JSON.stringify({ name: 'During the failure' }) }],
    ['PUT /heroes/:id', `/heroes/${id}`, { method: 'PUT', headers: { ...bearer, ...json }, body: JSON.stringify({ name: 'Renamed during the failure' }) }],
    ['DELETE /heroes/:id', `/heroes/${id}`, { method: 'DELETE', headers: bearer }],
  ];
  const answers: Record<string, string> = {};
  for (const [label, path, init] of requests) {
    const res = await fetch(`${edge}${path}`, { ...init, redirect: 'manual' });
    const text = await res.text();
    answers[label] = `${res.status}${res.headers.get('retry-after') ? ' retry-after' : ''} ${text.slice(0, 120)}`;
  }
  for (const [label, answer] of Object.entries(answers)) {
    t.false(answer.startsWith('5') && !answer.startsWith('503 retry-after'), `${label}: ${answer}`);
    t.false(answer.startsWith('500'), `${label}: ${answer}`);
  }
  t.log(answers);
  t.regex(answers['POST /heroes']!, /^503 retry-after .*database error/);
  t.regex(answers['POST /register']!, /^503 retry-after .*database error/);

  await admin.query(privileges('GRANT'));
  const again = await fetch(`${edge}/heroes/${id}`, { headers: bearer });
  t.is(again.status, 200);
});
