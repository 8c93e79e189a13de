/**
 * bcrypt operations per password grant: the user's password once per request, the client secret only until its
 * first success, also when the first requests arrive together. bcrypt's module is shared with the in-process server,
 * so wrapping it counts every call.
 */
import test from 'ava';
import bcrypt from 'bcrypt';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant } from '../_helpers/http.ts';

type Compare = (data: string | Buffer, encrypted: string) => Promise<boolean>;
const compares: string[] = [];
let others = 0;
const bcryptObject = bcrypt as unknown as Record<string, (...args: unknown[]) => unknown>;

let s: TestServer;
const user = { username: 'bob', password: 'bob-password' };

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'app', secret: 'app-secret' });
  await addClient(s.db, { id: 'burst', secret: 'burst-secret' });
  await addClient(s.db, { id: 'pub' });
  await addUser(s.db, user.username, user.password);
  const compare = bcrypt.compare as Compare;
  bcryptObject['compare'] = (data: unknown, encrypted: unknown) => {
    compares.push(String(data));
    return compare(data as string, encrypted as string);
  };
  for (const name of ['hash', 'compareSync', 'hashSync', 'genSalt', 'genSaltSync']) {
    const original = bcryptObject[name]!;
    bcryptObject[name] = (...args: unknown[]) => {
      others += 1;
      return original(...args);
    };
  }
});
test.after.always(() => s?.close());

function counted(from: number) {
  const calls = compares.slice(from);
  return { password: calls.filter((value) => value === user.password).length, secret: calls.filter((value) => value !== user.password).length };
}

test.serial('one bcrypt compare per request: the password each time, the client secret only the first time', async (t) => {
  const start = compares.length;
  t.is((await passwordGrant(s.url, basic('app', 'app-secret'), user)).status, 200);
  t.deepEqual(counted(start), { password: 1, secret: 1 });
  for (let i = 0; i < 5; i += 1) {
    const before = compares.length;
    t.is((await passwordGrant(s.url, basic('app', 'app-secret'), user)).status, 200);
    t.deepEqual(counted(before), { password: 1, secret: 0 }, `request ${i + 2}`);
  }
  t.is(others, 0, 'no bcrypt hash or sync call on the request path');
});

test.serial('a burst of concurrent first requests verifies the client secret once', async (t) => {
  const start = compares.length;
  const responses = await Promise.all(Array.from({ length: 8 }, () => passwordGrant(s.url, basic('burst', 'burst-secret'), user)));
  t.deepEqual(responses.map((res) => res.status), Array(8).fill(200));
  t.deepEqual(counted(start), { password: 8, secret: 1 });
});

test.serial('a public client: exactly the one password compare', async (t) => {
  const start = compares.length;
  t.is((await passwordGrant(s.url, basic('pub', ''), user)).status, 200);
  t.deepEqual(counted(start), { password: 1, secret: 0 });
});
