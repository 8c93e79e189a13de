import test from 'ava';
import bcrypt from 'bcrypt';
import { TOKENS_REVOKED_CHANNEL } from '../../src/index.ts';
import { listen } from '../_helpers/listen.ts';
import { printedSecret, runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });

test('rotate-secret prints a new secret once; only the new one verifies; tokens stay', async (t) => {
  t.is((await auth('add-client', '--id', 'web', '--secret', 'old-secret', '--allowed-scopes', 'heroes')).code, 0);
  await ctx.db.accessToken.create({ data: { id: 'at-web', clientId: 'web', payload: {}, expiresAt: new Date(Date.now() + 60_000) } });
  const result = await auth('rotate-secret', '--id', 'web');
  t.is(result.code, 0, result.stderr);
  const secret = printedSecret(result.stdout);
  t.regex(secret ?? '', /^[A-Za-z0-9_-]{43}$/);
  t.is(result.stdout.split(secret!).length - 1, 1);
  const row = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'web' } });
  t.true(await bcrypt.compare(secret!, row.hashedSecret!));
  t.false(await bcrypt.compare('old-secret', row.hashedSecret!));
  t.deepEqual(row.allowedScopes, ['heroes']);
  t.is(await ctx.db.accessToken.count({ where: { clientId: 'web' } }), 1);
});

// Serial: NOTIFY is database-wide, and the other tests of this file notify too.
test.serial('rotate-secret notifies resource servers with the client id', async (t) => {
  t.is((await auth('add-client', '--id', 'notified', '--secret', 'old-secret')).code, 0);
  const listener = await listen(ctx.url, TOKENS_REVOKED_CHANNEL);
  try {
    t.is((await auth('rotate-secret', '--id', 'notified')).code, 0);
    await listener.waitFor((p) => p['clientId'] === 'notified');
    t.deepEqual(listener.payloads, [{ clientId: 'notified' }]);
  } finally {
    await listener.close();
  }
});

test('rotate-secret refuses a public client unless --make-confidential', async (t) => {
  t.is((await auth('add-client', '--id', 'pub')).code, 0);
  const refused = await auth('rotate-secret', '--id', 'pub');
  t.is(refused.code, 1);
  t.is(refused.stderr, "Client ID 'pub' is a public client (no secret); pass --make-confidential to give it one.\n");
  t.is(refused.stdout, '');
  t.is((await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'pub' } })).hashedSecret, null);

  const result = await auth('rotate-secret', '--id', 'pub', '--make-confidential');
  t.is(result.code, 0, result.stderr);
  const row = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'pub' } });
  t.true(await bcrypt.compare(printedSecret(result.stdout)!, row.hashedSecret!));
});

test('rotate-secret with an unknown id fails with exit 1 and prints no secret', async (t) => {
  const result = await auth('rotate-secret', '--id', 'ghost');
  t.is(result.code, 1);
  t.is(result.stderr, "Client ID 'ghost' does not exist.\n");
  t.is(result.stdout, '');
});
