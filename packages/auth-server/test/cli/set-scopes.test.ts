import test from 'ava';
import { runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });
const scopesOf = async (id: string) => (await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id } })).allowedScopes;

test('set-scopes replaces the allowed scopes', async (t) => {
  t.is((await auth('add-client', '--id', 'replace', '--allowed-scopes', 'heroes:read')).code, 0);
  const result = await auth('set-scopes', '--id', 'replace', '--allowed-scopes', 'heroes  heroes:write heroes');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `Client 'replace' updated (public, no redirect URI, scopes: heroes heroes:write) in ${ctx.where}.\n`);
  t.deepEqual(await scopesOf('replace'), ['heroes', 'heroes:write']);
});

test('set-scopes with an empty string clears them', async (t) => {
  t.is((await auth('add-client', '--id', 'clear', '--allowed-scopes', 'heroes:read heroes:write')).code, 0);
  const result = await auth('set-scopes', '--id', 'clear', '--allowed-scopes', '');
  t.is(result.code, 0, result.stderr);
  t.deepEqual(await scopesOf('clear'), []);
});

test('set-scopes accepts --scopes as an alias (Aqueduct set-scope)', async (t) => {
  t.is((await auth('add-client', '--id', 'alias')).code, 0);
  t.is((await auth('set-scopes', '--id', 'alias', '--scopes', 'heroes:read')).code, 0);
  t.deepEqual(await scopesOf('alias'), ['heroes:read']);
});

test('set-scopes with a malformed scope fails and keeps the old scopes', async (t) => {
  t.is((await auth('add-client', '--id', 'keep', '--allowed-scopes', 'heroes:read')).code, 0);
  const result = await auth('set-scopes', '--id', 'keep', '--allowed-scopes', 'fine b"ad');
  t.is(result.code, 1);
  t.true(result.stderr.startsWith(`Invalid authorization scope 'b"ad'`), result.stderr);
  t.deepEqual(await scopesOf('keep'), ['heroes:read']);
});

test('set-scopes with an unknown id or missing option fails with exit 1', async (t) => {
  const unknown = await auth('set-scopes', '--id', 'ghost', '--allowed-scopes', 'heroes');
  t.is(unknown.code, 1);
  t.is(unknown.stderr, "Client ID 'ghost' does not exist.\n");
  const missing = await auth('set-scopes', '--id', 'ghost');
  t.is(missing.code, 1);
  t.is(missing.stderr, 'Option --allowed-scopes required.\n');
});

test('set-scopes refuses a scope the service does not know, naming the known ones, unless --allow-unknown-scope', async (t) => {
  t.is((await auth('add-client', '--id', 'catalogue', '--allowed-scopes', 'heroes:read')).code, 0);
  const refused = await auth('set-scopes', '--id', 'catalogue', '--allowed-scopes', 'heroes:read:own herose:write reports');
  t.is(refused.code, 1);
  t.is(refused.stdout, '');
  t.is(
    refused.stderr,
    "Unknown scopes 'herose:write', 'reports': this service knows openid, heroes, heroes:read, heroes:write and their sub-scopes (such as heroes:read:own). Pass --allow-unknown-scope to register them anyway.\n",
  );
  t.deepEqual(await scopesOf('catalogue'), ['heroes:read']);

  const allowed = await auth('set-scopes', '--id', 'catalogue', '--allowed-scopes', 'heroes:read:own reports', '--allow-unknown-scope');
  t.is(allowed.code, 0, allowed.stderr);
  t.deepEqual(await scopesOf('catalogue'), ['heroes:read:own', 'reports']);
});

test('set-scopes applies the token endpoint limits: at most 50 values of at most 256 characters', async (t) => {
  t.is((await auth('add-client', '--id', 'limits', '--allowed-scopes', 'heroes:read')).code, 0);
  const fifty = Array.from({ length: 50 }, (_, i) => `heroes:read:s${i}`).join(' ');
  const tooMany = await auth('set-scopes', '--id', 'limits', '--allowed-scopes', `${fifty} heroes:write`);
  t.is(tooMany.code, 1);
  t.is(tooMany.stderr, 'Invalid allowed scopes: more than 50 scope values (the limit of the token endpoint).\n');
  const tooLong = await auth('set-scopes', '--id', 'limits', '--allowed-scopes', `heroes:read:${'x'.repeat(245)}`);
  t.is(tooLong.code, 1);
  t.is(tooLong.stderr, 'Invalid allowed scopes: a scope value is longer than 256 characters (the limit of the token endpoint).\n');
  t.deepEqual(await scopesOf('limits'), ['heroes:read']);

  const atTheLimits = await auth('set-scopes', '--id', 'limits', '--allowed-scopes', fifty.replace('heroes:read:s0', `heroes:read:${'x'.repeat(244)}`));
  t.is(atTheLimits.code, 0, atTheLimits.stderr);
  t.is((await scopesOf('limits')).length, 50);
});
