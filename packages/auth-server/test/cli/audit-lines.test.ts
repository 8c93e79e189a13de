/**
 * Every audit event a command of the `auth` binary writes is also logged as
 * one JSON line, as the servers log theirs (`{"audit":{…},"msg":"audit
 * event"}`): on stderr, once the change committed, so stdout stays the
 * command's output (`--json` still parses); a refused command logs nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { addUser } from '@heroes/test-kit';
import { runAuth, type AuthResult } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test, async (db) => {
  await addUser(db, 'dora', 'dora-long-password');
});
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });

/** The audit records of stderr's lines; any other line fails the test. */
function auditLines(t: import('ava').ExecutionContext, result: AuthResult): Array<Record<string, unknown>> {
  t.is(result.code, 0, result.stderr);
  return result.stderr.split('\n').filter((line) => line !== '').map((line) => {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    t.is(parsed['msg'], 'audit event', line);
    return parsed['audit'] as Record<string, unknown>;
  });
}

test.serial('each event a command records is one JSON line on stderr, matching the stored record', async (t) => {
  const added = await auth('add-client', '--id', 'lined', '--secret', 'lined-secret-value', '--json');
  t.is((JSON.parse(added.stdout) as { client: { id: string } }).client.id, 'lined', 'stdout is still the command\'s JSON');
  const [event] = auditLines(t, added);
  t.like(event, { type: 'client.added', clientId: 'lined', reason: 'confidential client' });
  t.regex(String(event!['at']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.false(added.stderr.includes('lined-secret-value'), 'never a secret');

  const rotation = await auth('rotate-secret', '--id', 'lined', '--json');
  t.deepEqual(auditLines(t, rotation).map((line) => line['type']), ['client.secret_rotated']);
  t.false(rotation.stderr.includes((JSON.parse(rotation.stdout) as { secret: string }).secret), 'never the new secret');
  t.deepEqual(auditLines(t, await auth('set-scopes', '--id', 'lined', '--allowed-scopes', 'heroes:read')).map((line) => line['type']), ['client.changed']);
  t.deepEqual(auditLines(t, await auth('users', 'disable', 'dora')).map((line) => [line['type'], line['username']]), [['user.disabled', 'dora']]);
  t.deepEqual(auditLines(t, await auth('users', 'enable', 'dora')).map((line) => line['type']), ['user.enabled']);
  t.deepEqual(auditLines(t, await auth('users', 'unlock', 'dora')).map((line) => line['type']), ['user.unlocked']);
  t.deepEqual(auditLines(t, await auth('tokens', 'revoke', '--client', 'lined')).map((line) => [line['type'], line['clientId']]), [['token.revoked', 'lined']]);
  t.deepEqual(auditLines(t, await auth('remove-client', '--id', 'lined')).map((line) => line['type']), ['client.removed']);
  t.deepEqual(auditLines(t, await auth('users', 'delete', 'dora')).map((line) => line['type']), ['user.deleted']);

  // The lines say what the trail holds.
  const stored = JSON.parse((await auth('events', '--json')).stdout) as Array<Record<string, unknown>>;
  t.deepEqual(stored.map((row) => row['type']), ['client.added', 'client.secret_rotated', 'client.changed', 'user.disabled', 'user.enabled', 'user.unlocked', 'token.revoked', 'client.removed', 'user.deleted']);
});

test.serial('reading commands and refused commands log no audit line', async (t) => {
  for (const args of [['list-clients'], ['users', 'list', '--json'], ['events']]) t.deepEqual(auditLines(t, await auth(...args)), [], args.join(' '));
  const refused = await auth('users', 'disable', 'nobody-at-all');
  t.is(refused.code, 1);
  t.is(refused.stderr.trim().split('\n').length, 1, 'one line: the error');
  t.false(refused.stderr.includes('audit event'));
});

test.serial('keys rotate logs keys.rotated when it records it', async (t) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-lines-'));
  try {
    const file = path.join(folder, 'auth-keys.json');
    t.is((await runAuth(['keys', '--out', file])).code, 0);
    const rotated = await auth('keys', 'rotate', '--file', file, '--json');
    const { kid } = JSON.parse(rotated.stdout) as { kid: string };
    t.deepEqual(auditLines(t, rotated).map((line) => [line['type'], line['reason']]), [['keys.rotated', `new signing key ${kid}`]]);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
