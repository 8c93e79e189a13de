import test from 'ava';
import bcrypt from 'bcrypt';
import { runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the printed JSON field by field
type Printed = Record<string, any>;

/** stdout of a successful --json run, parsed; stderr holds only the audit lines of what it changed (docs/cli.md). */
async function json(t: import('ava').ExecutionContext, ...args: string[]): Promise<Printed> {
  const result = await auth(...args, '--json');
  t.is(result.code, 0, result.stderr);
  for (const line of result.stderr.split('\n').filter(Boolean)) t.is((JSON.parse(line) as { msg: string }).msg, 'audit event', line);
  return JSON.parse(result.stdout) as Printed;
}

test.serial('every writing command prints { client, ... } as JSON; a generated secret appears there once', async (t) => {
  const added = await json(t, 'add-client', '--id', 'web', '--generate-secret', '--redirect-uri', 'https://app.example/cb', '--allowed-scopes', 'heroes');
  t.is(added.client.id, 'web');
  t.is(added.client.type, 'confidential');
  t.deepEqual(added.client.redirectUris, ['https://app.example/cb']);
  t.regex(added.secret, /^[A-Za-z0-9_-]{43}$/);
  const stored = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'web' } });
  t.true(await bcrypt.compare(added.secret, stored.hashedSecret!));
  t.false(JSON.stringify(added.client).includes(added.secret));
  t.false(JSON.stringify(added).includes(stored.hashedSecret!));

  const typed = await json(t, 'add-client', '--id', 'typed', '--secret', 'typed-secret');
  t.false('secret' in typed, 'a secret the operator typed is never printed');

  const scoped = await json(t, 'set-scopes', '--id', 'web', '--allowed-scopes', 'heroes:read');
  t.deepEqual(scoped.client.allowedScopes, ['heroes:read']);
  const redirected = await json(t, 'set-redirect-uris', '--id', 'web', '--redirect-uri', 'https://a.example/cb', '--redirect-uri', 'https://b.example/cb');
  t.deepEqual(redirected.client.redirectUris, ['https://a.example/cb', 'https://b.example/cb']);

  const rotated = await json(t, 'rotate-secret', '--id', 'web');
  t.regex(rotated.secret, /^[A-Za-z0-9_-]{43}$/);
  t.not(rotated.secret, added.secret);
  t.true(await bcrypt.compare(rotated.secret, (await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'web' } })).hashedSecret!));

  const removed = await json(t, 'remove-client', '--id', 'web');
  t.is(removed.client.id, 'web');
  t.deepEqual(removed.deleted, { accessTokens: 0, refreshTokens: 0, authorizationCodes: 0 });
  t.is(await ctx.db.oAuthClient.findUnique({ where: { id: 'web' } }), null);
});

test.serial('with --json every failure is one JSON line on stderr, exit 1, nothing on stdout', async (t) => {
  const cases: Array<[string[], string, RegExp]> = [
    [['add-client', '--id', 'typed'], 'client_exists', /^Client ID 'typed' already exists\.$/],
    [['add-client', '--id', 'bad', '--redirect-uri', 'no-scheme'], 'invalid_input', /^Invalid redirect URI 'no-scheme'/],
    [['add-client', '--id', 'bad', '--allowed-scopes', 'reports'], 'unknown_scope', /^Unknown scope 'reports'/],
    [['add-client', '--secret', 'x'], 'usage_error', /^Option --id required\.$/],
    [['remove-client', '--id', 'ghost'], 'client_not_found', /^Client ID 'ghost' does not exist\.$/],
    [['rotate-secret', '--id', 'ghost'], 'client_not_found', /does not exist/],
    [['set-scopes', '--id', 'ghost', '--allowed-scopes', 'heroes'], 'client_not_found', /does not exist/],
    [['set-redirect-uris', '--id', 'ghost', '--clear'], 'client_not_found', /does not exist/],
  ];
  for (const [args, error, message] of cases) {
    const result = await auth(...args, '--json');
    t.is(result.code, 1, args.join(' '));
    t.is(result.stdout, '', args.join(' '));
    t.is(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
    const body = JSON.parse(result.stderr) as { error: string; message: string };
    t.deepEqual(Object.keys(body), ['error', 'message']);
    t.is(body.error, error, args.join(' '));
    t.regex(body.message, message);
  }
});

test('a database that cannot be reached is a database_error in JSON', async (t) => {
  const result = await runAuth(['list-clients', '--json'], { databaseUrl: 'postgresql://postgres@127.0.0.1:1/nowhere' });
  t.is(result.code, 1);
  t.is(result.stdout, '');
  t.deepEqual(JSON.parse(result.stderr), { error: 'database_error', message: 'cannot reach the database at 127.0.0.1:1' });
});
