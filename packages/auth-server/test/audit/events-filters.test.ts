/**
 * `auth events` filters (docs/operations.md, Events): --since takes a duration or an ISO 8601 date and refuses
 * anything else in one line; --user, --client, --type and --since narrow the listing, newest last.
 */
import test from 'ava';
import { listAuditEvents, sqlPool } from '@heroes/db';
import { parseSince } from '../../src/cli/commands/events-command.ts';
import { CliError } from '../../src/cli/cli-error.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);

test('--since: 30s, 10m, 2h, 7d or an ISO 8601 date; anything else is one clear error', (t) => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  t.is(parseSince('30s', now).toISOString(), '2026-11-27T11:59:30.000Z');
  t.is(parseSince('10m', now).toISOString(), '2026-11-27T11:50:00.000Z');
  t.is(parseSince('2h', now).toISOString(), '2026-11-27T10:00:00.000Z');
  t.is(parseSince('7d', now).toISOString(), '2026-11-20T12:00:00.000Z');
  t.is(parseSince('2026-11-27T09:00:00Z', now).toISOString(), '2026-11-27T09:00:00.000Z');
  for (const bad of ['10', '10 m', 'yesterday', '-5m', '2026-13-45', '']) {
    t.throws(() => parseSince(bad, now), { instanceOf: CliError, message: /^--since must be a duration like 30s, 10m, 2h, 7d or an ISO 8601 date/ }, bad);
  }
});

test('--user, --client, --type and --since narrow the listing; the newest is last', async (t) => {
  const hour = 3_600_000;
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * hour);
  await ctx.db.auditEvent.createMany({
    data: [
      { type: 'login.failed', username: 'ann', clientId: 'web', at: at(5) },
      { type: 'login.succeeded', username: 'ann', clientId: 'web', at: at(3) },
      { type: 'token.issued', username: 'ann', clientId: 'cli', at: at(2) },
      { type: 'login.failed', username: 'ben', clientId: 'web', at: at(1) },
    ],
  });
  const pool = sqlPool(ctx.db);
  const list = async (filter: Parameters<typeof listAuditEvents>[1]) => (await listAuditEvents(pool, filter)).map((event) => `${event.username} ${event.type} ${event.clientId}`);
  t.deepEqual(await list({ username: 'ann' }), ['ann login.failed web', 'ann login.succeeded web', 'ann token.issued cli']);
  t.deepEqual(await list({ clientId: 'web' }), ['ann login.failed web', 'ann login.succeeded web', 'ben login.failed web']);
  t.deepEqual(await list({ type: 'login.failed' }), ['ann login.failed web', 'ben login.failed web']);
  t.deepEqual(await list({ since: at(2.5) }), ['ann token.issued cli', 'ben login.failed web']);
  t.deepEqual(await list({ username: 'ann', clientId: 'web', type: 'login.failed' }), ['ann login.failed web']);
  t.deepEqual(await list({ limit: 2 }), ['ann token.issued cli', 'ben login.failed web'], '--limit keeps the newest');
});
