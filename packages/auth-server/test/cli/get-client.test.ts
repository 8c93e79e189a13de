import test from 'ava';
import { printedSecret, runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });

test('get-client <id> shows one client with what applies when nothing is registered, never its secret', async (t) => {
  const added = await auth('add-client', '--id', 'spa', '--generate-secret', '--redirect-uri', 'https://app.example/cb', '--redirect-uri', 'http://127.0.0.1:8080/cb');
  t.is(added.code, 0, added.stderr);
  const secret = printedSecret(added.stdout)!;
  const hash = (await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'spa' } })).hashedSecret!;

  const result = await auth('get-client', 'spa');
  t.is(result.code, 0, result.stderr);
  const lines = result.stdout.trimEnd().split('\n');
  const label = (name: string) => `${name}:`.padEnd(17);
  t.deepEqual(lines.slice(0, 6), [
    `${label('ID')}spa`,
    `${label('Type')}confidential`,
    `${label('Redirect URIs')}https://app.example/cb`,
    `${' '.repeat(17)}http://127.0.0.1:8080/cb`,
    `${label('Allowed scopes')}none registered: heroes:read heroes:write apply`,
    `${label('Allowed origins')}none registered: https://app.example http://127.0.0.1:8080 (the redirect URIs' origins) apply`,
  ]);
  t.is(lines[6], `${label('Grant types')}none registered: password authorization_code refresh_token apply`);
  t.regex(lines[7]!, /^Created: {9}\d{4}-\d\d-\d\dT/);
  t.regex(lines[8]!, /^Updated: {9}\d{4}-\d\d-\d\dT/);
  for (const output of [result.stdout, result.stderr]) {
    t.false(output.includes(secret));
    t.false(output.includes(hash));
  }
});

test('get-client --id with --json prints the client as one JSON object', async (t) => {
  t.is((await auth('add-client', '--id', 'api', '--allowed-scopes', 'heroes:read openid', '--allowed-origin', 'https://tool.example')).code, 0);
  const result = await auth('get-client', '--id', 'api', '--json');
  t.is(result.code, 0, result.stderr);
  const client = JSON.parse(result.stdout) as Record<string, unknown>;
  const row = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'api' } });
  t.deepEqual(client, {
    id: 'api',
    type: 'public',
    redirectUris: [],
    allowedScopes: ['heroes:read', 'openid'],
    effectiveScopes: ['heroes:read', 'openid'],
    grantTypes: [],
    effectiveGrantTypes: ['password', 'authorization_code'],
    allowedOrigins: ['https://tool.example'],
    effectiveOrigins: ['https://tool.example'],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });
});

test('get-client with an unknown id fails with exit 1, as text or as JSON', async (t) => {
  const text = await auth('get-client', 'ghost');
  t.is(text.code, 1);
  t.is(text.stdout, '');
  t.is(text.stderr, "Client ID 'ghost' does not exist.\n");
  const json = await auth('get-client', 'ghost', '--json');
  t.is(json.code, 1);
  t.is(json.stdout, '');
  t.deepEqual(JSON.parse(json.stderr), { error: 'client_not_found', message: "Client ID 'ghost' does not exist." });
});

test('get-client without an id, or with two different ones, fails with one line', async (t) => {
  const none = await auth('get-client');
  t.is(none.code, 1);
  t.is(none.stderr, 'Client ID required: auth get-client <id>.\n');
  const two = await auth('get-client', 'a', '--id', 'b');
  t.is(two.code, 1);
  t.is(two.stderr, 'Give the client ID once: as the argument or with --id.\n');
});
