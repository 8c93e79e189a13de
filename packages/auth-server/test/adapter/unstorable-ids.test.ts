/**
 * Adapter look-ups of values that cannot be valid ids never reach the
 * database (a NUL fails the query: a 500) nor collide through U+FFFD.
 */
import test from 'ava';
import { RecordAdapter } from '../../src/adapter/record-adapter.ts';
import { TokenAdapter } from '../../src/adapter/token-adapter.ts';
import { addClient, startTestServer, type TestServer } from '../_helpers/fixtures.ts';

let s: TestServer;

test.before(async () => {
  s = await startTestServer();
  await addClient(s.db, { id: 'app' });
});
test.after.always(() => s?.close());

test('RecordAdapter: find, findByUid and findByUserCode of a NUL value → undefined, no failed query', async (t) => {
  const records = new RecordAdapter(s.db, 'Grant');
  t.is(await records.find('a\u0000b'), undefined);
  t.is(await records.findByUid('a\u0000b'), undefined);
  t.is(await records.findByUserCode('\u0000'), undefined);
  t.is(await records.find('a\uD800'), undefined);
});

test('TokenAdapter: a value with a lone surrogate does not find the token stored for its U+FFFD twin', async (t) => {
  const tokens = new TokenAdapter(s.db, 'AccessToken', async () => {});
  const now = Math.floor(Date.now() / 1000);
  await tokens.upsert('tok\uFFFD', { iat: now, exp: now + 60, clientId: 'app', kind: 'AccessToken' }, 60);
  t.is(await tokens.find('tok\uD800'), undefined);
  t.is(await tokens.find('tok\u0000'), undefined);
  t.is(await tokens.find(''), undefined);
});
