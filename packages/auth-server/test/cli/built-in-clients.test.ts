import test from 'ava';
import { runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });

test.serial.before(async () => {
  await ctx.db.oAuthClient.create({ data: { id: 'resource-server', hashedSecret: 'x', redirectUris: [], allowedScopes: [] } });
  await ctx.db.oAuthClient.create({ data: { id: 'tour-of-heroes', hashedSecret: null, redirectUris: ['http://localhost:8888/app/callback'], allowedScopes: ['heroes:read', 'heroes:write'] } });
});

const refusals: Array<[string, string[], string]> = [
  ['remove-client', [], 'remove'],
  ['set-scopes', ['--allowed-scopes', 'heroes:read'], 'change'],
  ['set-redirect-uris', ['--redirect-uri', 'https://elsewhere.example/cb'], 'change'],
  ['rotate-secret', [], 'change'],
];

for (const [command, extra, action] of refusals) {
  test(`${command} refuses the built-in clients without --force, saying why`, async (t) => {
    const server = await auth(command, '--id', 'resource-server', ...extra);
    t.is(server.code, 1);
    t.is(server.stdout, '');
    t.is(server.stderr.split('\n').length, 2, 'one line');
    t.regex(server.stderr, new RegExp(`^Client 'resource-server' is built in: the resource server authenticates with it to introspect tokens.*Add --force to ${action} it anyway\\.\\n$`));
    const app = await auth(command, '--id', 'tour-of-heroes', ...extra, '--json');
    t.is(app.code, 1);
    t.like(JSON.parse(app.stderr), { error: 'built_in_client' });
    t.regex(JSON.parse(app.stderr).message, /web app \(\/app\) and the \/docs "Authorize" dialog/);
    const rows = await ctx.db.oAuthClient.findMany({ where: { id: { in: ['resource-server', 'tour-of-heroes'] } }, orderBy: { id: 'asc' } });
    t.is(rows.length, 2, 'nothing written');
    t.deepEqual(rows[1]!.redirectUris, ['http://localhost:8888/app/callback']);
    t.deepEqual(rows[1]!.allowedScopes, ['heroes:read', 'heroes:write']);
  });
}

test('--force changes a built-in client', async (t) => {
  await ctx.db.oAuthClient.create({ data: { id: 'probe', hashedSecret: null, redirectUris: [], allowedScopes: [] } });
  const result = await runAuth(['set-scopes', '--id', 'probe', '--allowed-scopes', 'heroes:read', '--force'], {
    databaseUrl: ctx.url,
    env: { RESOURCE_SERVER_CLIENT_ID: 'probe' },
  });
  t.is(result.code, 0, result.stderr);
  t.deepEqual((await ctx.db.oAuthClient.findUnique({ where: { id: 'probe' } }))!.allowedScopes, ['heroes:read']);
  const refused = await runAuth(['remove-client', '--id', 'probe'], { databaseUrl: ctx.url, env: { RESOURCE_SERVER_CLIENT_ID: 'probe' } });
  t.is(refused.code, 1, 'RESOURCE_SERVER_CLIENT_ID names the built-in client');
});
