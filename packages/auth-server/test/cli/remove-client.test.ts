import test from 'ava';
import { TOKENS_REVOKED_CHANNEL } from '../../src/index.ts';
import { listen } from '../_helpers/listen.ts';
import { runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });
const inAnHour = () => new Date(Date.now() + 3_600_000);

// Serial: NOTIFY is database-wide, and the other tests of this file notify too.
test.serial('remove-client deletes the client with its tokens and codes, and notifies', async (t) => {
  t.is((await auth('add-client', '--id', 'doomed', '--secret', 'x')).code, 0);
  t.is((await auth('add-client', '--id', 'bystander')).code, 0);
  await ctx.db.accessToken.create({ data: { id: 'at-doomed', clientId: 'doomed', payload: {}, expiresAt: inAnHour() } });
  await ctx.db.refreshToken.create({ data: { id: 'rt-doomed', clientId: 'doomed', payload: {}, expiresAt: inAnHour() } });
  await ctx.db.authorizationCode.create({ data: { id: 'ac-doomed', clientId: 'doomed', payload: {}, expiresAt: inAnHour() } });
  await ctx.db.accessToken.create({ data: { id: 'at-bystander', clientId: 'bystander', payload: {}, expiresAt: inAnHour() } });

  const listener = await listen(ctx.url, TOKENS_REVOKED_CHANNEL);
  try {
    const result = await auth('remove-client', '--id', 'doomed');
    t.is(result.code, 0, result.stderr);
    t.is(result.stdout, `Client 'doomed' removed (with 1 access token(s), 1 refresh token(s), 1 authorization code(s)) from ${ctx.where}.\n`);
    t.is(await ctx.db.oAuthClient.findUnique({ where: { id: 'doomed' } }), null);
    t.is(await ctx.db.accessToken.count({ where: { clientId: 'doomed' } }), 0);
    t.is(await ctx.db.refreshToken.count({ where: { clientId: 'doomed' } }), 0);
    t.is(await ctx.db.authorizationCode.count({ where: { clientId: 'doomed' } }), 0);
    t.truthy(await ctx.db.oAuthClient.findUnique({ where: { id: 'bystander' } }));
    t.is(await ctx.db.accessToken.count({ where: { clientId: 'bystander' } }), 1);
    await listener.waitFor((p) => p['clientId'] === 'doomed');
    t.deepEqual(listener.payloads, [{ clientId: 'doomed' }]);
  } finally {
    await listener.close();
  }
});

test('remove-client with an unknown id fails with exit 1', async (t) => {
  const result = await auth('remove-client', '--id', 'ghost');
  t.is(result.code, 1);
  t.is(result.stderr, "Client ID 'ghost' does not exist.\n");
  t.is(result.stdout, '');
});

test('remove-client without --id fails with one line', async (t) => {
  const result = await auth('remove-client');
  t.is(result.code, 1);
  t.is(result.stderr, 'Option --id required.\n');
});
