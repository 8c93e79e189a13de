import test from 'ava';
import { runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });
const grantTypesOf = async (id: string) => (await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id } })).grantTypes;

test('add-client --grant-types stores the list; get-client and --json show it', async (t) => {
  const added = await auth('add-client', '--id', 'reports', '--secret', 'reports-secret-1', '--grant-types', 'client_credentials  password client_credentials', '--json');
  t.is(added.code, 0, added.stderr);
  const { client } = JSON.parse(added.stdout) as { client: Record<string, unknown> };
  t.deepEqual(client['grantTypes'], ['password', 'client_credentials'], 'each once, in a fixed order');
  t.deepEqual(client['effectiveGrantTypes'], ['password', 'client_credentials']);
  t.deepEqual(await grantTypesOf('reports'), ['password', 'client_credentials']);
  const text = await auth('get-client', 'reports');
  t.regex(text.stdout, /^Grant types: {5}password client_credentials$/m);
});

test('without --grant-types nothing is stored: the default of the client\'s kind applies', async (t) => {
  t.is((await auth('add-client', '--id', 'plain-conf', '--secret', 'plain-secret-1')).code, 0);
  t.is((await auth('add-client', '--id', 'plain-pub')).code, 0);
  t.deepEqual(await grantTypesOf('plain-conf'), []);
  const conf = JSON.parse((await auth('get-client', 'plain-conf', '--json')).stdout) as Record<string, unknown>;
  const pub = JSON.parse((await auth('get-client', 'plain-pub', '--json')).stdout) as Record<string, unknown>;
  t.deepEqual(conf['effectiveGrantTypes'], ['password', 'authorization_code', 'refresh_token']);
  t.deepEqual(pub['effectiveGrantTypes'], ['password', 'authorization_code']);
});

test('a public client is refused refresh_token and client_credentials, writing nothing', async (t) => {
  for (const grants of ['client_credentials', 'authorization_code refresh_token']) {
    const result = await auth('add-client', '--id', 'pub-refused', '--grant-types', grants);
    t.is(result.code, 1);
    t.regex(result.stderr, /^A public client \(no secret\) cannot use (client_credentials|refresh_token): give it a secret/);
  }
  t.is(await ctx.db.oAuthClient.count({ where: { id: 'pub-refused' } }), 0);
});

test('an unknown grant type is refused with the list of known ones', async (t) => {
  const result = await auth('add-client', '--id', 'odd', '--secret', 'odd-secret-1', '--grant-types', 'password implicit', '--json');
  t.is(result.code, 1);
  const error = JSON.parse(result.stderr) as { error: string; message: string };
  t.is(error.error, 'invalid_input');
  t.is(error.message, "Unknown grant type 'implicit': choose from password, authorization_code, refresh_token, client_credentials.");
});

test('set-grant-types replaces the list; "" returns to the default; a public client keeps its limits', async (t) => {
  t.is((await auth('add-client', '--id', 'change', '--secret', 'change-secret-1')).code, 0);
  const set = await auth('set-grant-types', '--id', 'change', '--grant-types', 'authorization_code refresh_token');
  t.is(set.code, 0, set.stderr);
  t.regex(set.stdout, /^Client 'change' updated \(.*grant types: authorization_code refresh_token\)/);
  t.deepEqual(await grantTypesOf('change'), ['authorization_code', 'refresh_token']);
  t.is((await auth('set-grant-types', '--id', 'change', '--grant-types', '')).code, 0);
  t.deepEqual(await grantTypesOf('change'), []);

  t.is((await auth('add-client', '--id', 'change-pub')).code, 0);
  const refused = await auth('set-grant-types', '--id', 'change-pub', '--grant-types', 'client_credentials');
  t.is(refused.code, 1);
  t.deepEqual(await grantTypesOf('change-pub'), []);
  const missing = await auth('set-grant-types', '--id', 'change-pub');
  t.is(missing.code, 1);
  t.is(missing.stderr, 'Option --grant-types required.\n');
  const unknown = await auth('set-grant-types', '--id', 'ghost', '--grant-types', 'password');
  t.is(unknown.stderr, "Client ID 'ghost' does not exist.\n");
});

test('the built-in browser client defaults to the code flow only, and needs --force to change', async (t) => {
  await ctx.db.oAuthClient.create({ data: { id: 'tour-of-heroes', hashedSecret: null, redirectUris: ['http://localhost:8888/app/callback'] } });
  const shown = JSON.parse((await auth('get-client', 'tour-of-heroes', '--json')).stdout) as Record<string, unknown>;
  t.deepEqual(shown['effectiveGrantTypes'], ['authorization_code']);
  const refused = await auth('set-grant-types', '--id', 'tour-of-heroes', '--grant-types', 'password authorization_code');
  t.is(refused.code, 1);
  t.regex(refused.stderr, /is built in/);
  t.is((await auth('set-grant-types', '--id', 'tour-of-heroes', '--grant-types', 'password authorization_code', '--force')).code, 0);
  t.deepEqual(await grantTypesOf('tour-of-heroes'), ['password', 'authorization_code']);
});
