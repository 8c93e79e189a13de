/**
 * A flood of wrong client secrets does not starve real logins: failed client authentication is throttled per client
 * and secret compares wait in the hash queue's low lane, behind passwords. Counted, not timed: 40 connections of wrong
 * secrets, 10 real logins meanwhile.
 */
import bcrypt from 'bcrypt';
import test from 'ava';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic } from '../_helpers/http.ts';

let s: TestServer;
const ATTACKED = ['svc-a', 'svc-b', 'svc-c'];

test.before(async () => {
  // A small queue, as on a busy replica: 2 compares at once, 4 waiting.
  s = await startTestServer({ passwordHashConcurrency: 2, passwordHashQueueMax: 4, loginRefusalDelayMs: 100 });
  await addClient(s.db, { id: 'app', secret: 'app-secret' });
  // Cost 12: each wrong secret costs a few hundred ms of a thread.
  for (const id of ATTACKED) await s.db.oAuthClient.create({ data: { id, hashedSecret: await bcrypt.hash(`${id} secret`, 12), allowedScopes: [] } });
  await addUser(s.db, 'rita', 'rita-password-1');
});
test.after.always(async () => {
  await s?.close();
});

async function post(client: [string, string], form: Record<string, string>, address: string): Promise<number> {
  const res = await fetch(`${s.url}/auth/token`, {
    method: 'POST',
    headers: { authorization: basic(...client), 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    body: new URLSearchParams(form),
  });
  await res.arrayBuffer();
  return res.status;
}

test('40 connections of wrong secrets (several clients, rotating addresses): at least 9 of 10 real logins succeed', async (t) => {
  t.is(await post(['app', 'app-secret'], { grant_type: 'password', username: 'rita', password: 'rita-password-1' }, '198.51.100.30'), 200, 'before the flood');
  let stop = false;
  let answered = 0;
  const statuses = new Map<number, number>();
  let floodStarted!: () => void;
  const started = new Promise<void>((resolve) => (floodStarted = resolve));
  const flood = Array.from({ length: 40 }, async (_, connection) => {
    for (let i = 0; !stop; i++) {
      const client = ATTACKED[(connection + i) % ATTACKED.length]!;
      const status = await post([client, `wrong-${connection}-${i}`], { grant_type: 'password', username: 'x', password: 'y' }, `192.0.2.${(connection * 7 + i) % 250}`);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (++answered === 40) floodStarted();
    }
  });
  await started;
  const logins: number[] = [];
  for (let i = 0; i < 10; i++) logins.push(await post(['app', 'app-secret'], { grant_type: 'password', username: 'rita', password: 'rita-password-1' }, '198.51.100.30'));
  stop = true;
  await Promise.all(flood);
  const flooded = [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
  t.true(logins.filter((status) => status === 200).length >= 9, `real logins: ${logins.join(' ')}; flood: ${flooded}`);
  t.false(statuses.has(200), 'no wrong secret was accepted');
  t.true((statuses.get(429) ?? 0) > 0, `the attacked clients were throttled: ${flooded}`);
});
