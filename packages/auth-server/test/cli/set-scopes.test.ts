import test from 'ava';
import { runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });
const scopesOf = async (id: string) => (await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id } })).allowedScopes;

test('set-scopes replaces the allowed scopes', async (t) => {
  t.is((await auth('add-client', '--id', 'replace', '--allowed-scopes', 'old')).code, 0);
  const result = await auth('set-scopes', '--id', 'replace', '--allowed-scopes', 'heroes  heroes:write heroes');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `Client 'replace' updated (public, no redirect URI, scopes: heroes heroes:write) in ${ctx.where}.\n`);
  t.deepEqual(await scopesOf('replace'), ['heroes', 'heroes:write']);
});

test('set-scopes with an empty string clears them', async (t) => {
  t.is((await auth('add-client', '--id', 'clear', '--allowed-scopes', 'a b')).code, 0);
  const result = await auth('set-scopes', '--id', 'clear', '--allowed-scopes', '');
  t.is(result.code, 0, result.stderr);
  t.deepEqual(await scopesOf('clear'), []);
});

test('set-scopes accepts --scopes as an alias (Aqueduct set-scope)', async (t) => {
  t.is((await auth('add-client', '--id', 'alias')).code, 0);
  t.is((await auth('set-scopes', '--id', 'alias', '--scopes', 'x')).code, 0);
  t.deepEqual(await scopesOf('alias'), ['x']);
});

test('set-scopes with a malformed scope fails and keeps the old scopes', async (t) => {
  t.is((await auth('add-client', '--id', 'keep', '--allowed-scopes', 'good')).code, 0);
  const result = await auth('set-scopes', '--id', 'keep', '--allowed-scopes', 'fine b"ad');
  t.is(result.code, 1);
  t.true(result.stderr.startsWith(`Invalid authorization scope 'b"ad'`), result.stderr);
  t.deepEqual(await scopesOf('keep'), ['good']);
});

test('set-scopes with an unknown id or missing option fails with exit 1', async (t) => {
  const unknown = await auth('set-scopes', '--id', 'ghost', '--allowed-scopes', 'a');
  t.is(unknown.code, 1);
  t.is(unknown.stderr, "Client ID 'ghost' does not exist.\n");
  const missing = await auth('set-scopes', '--id', 'ghost');
  t.is(missing.code, 1);
  t.is(missing.stderr, 'Option --allowed-scopes required.\n');
});
