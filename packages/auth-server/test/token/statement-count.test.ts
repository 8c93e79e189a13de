/**
 * SQL statements per password grant (docs/performance.md): from a known address with the secret already verified,
 * seven in three round trips (the client; the throttle's start beside the user's read; the throttle's success beside
 * the grant and both tokens). pg's Client is shared with the in-process server, so wrapping its query sees every
 * statement; a round trip is what is sent while none is in flight.
 */
import test from 'ava';
import pg from 'pg';
import { addClient, addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant } from '../_helpers/http.ts';

type Query = (...args: unknown[]) => unknown;
const statements: string[] = [];
let inFlight = 0;
let roundTrips = 0;
let s: TestServer;
const user = { username: 'bob', password: 'bob-password' };

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'app', secret: 'app-secret' });
  await addUser(s.db, user.username, user.password);
  const prototype = pg.Client.prototype as unknown as { query: Query };
  const query = prototype.query;
  prototype.query = function countedQuery(this: unknown, ...args: unknown[]) {
    const config = args[0] as string | { name?: string; text?: string };
    statements.push(typeof config === 'string' ? config.slice(0, 60) : (config.name ?? config.text?.slice(0, 60) ?? '?'));
    if (inFlight === 0) roundTrips += 1;
    inFlight += 1;
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        inFlight -= 1;
        return (callback as Query)(...results);
      };
      return query.apply(this, args);
    }
    const done = () => {
      inFlight -= 1;
    };
    const result = query.apply(this, args);
    if (result instanceof Promise) void result.then(done, done);
    else done();
    return result;
  };
});
test.after.always(() => s?.close());

test('a password grant from a known address, the client secret remembered: seven statements in three round trips', async (t) => {
  t.is((await passwordGrant(s.url, basic('app', 'app-secret'), user)).status, 200, 'first login: secret verified, address known');
  for (let i = 0; i < 3; i += 1) {
    statements.length = 0;
    roundTrips = 0;
    t.is((await passwordGrant(s.url, basic('app', 'app-secret'), user)).status, 200);
    t.is(statements.length, 7, statements.join(', '));
    t.is(roundTrips, 3, statements.join(', '));
  }
});
