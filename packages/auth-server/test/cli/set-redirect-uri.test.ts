import test from 'ava';
import { runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });
const uriOf = async (id: string) => (await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id } })).redirectUri;

test('set-redirect-uri sets the redirect URI exactly as given', async (t) => {
  t.is((await auth('add-client', '--id', 'web', '--secret', 's')).code, 0);
  const result = await auth('set-redirect-uri', '--id', 'web', '--redirect-uri', 'https://app.example.com/cb?x=1');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `Client 'web' updated (confidential, redirect URI https://app.example.com/cb?x=1, default scopes: heroes:read heroes:write) in ${ctx.where}.\n`);
  t.is(await uriOf('web'), 'https://app.example.com/cb?x=1');
});

test('set-redirect-uri --clear and --redirect-uri "" remove it', async (t) => {
  t.is((await auth('add-client', '--id', 'c1', '--redirect-uri', 'https://a.example/cb')).code, 0);
  t.is((await auth('add-client', '--id', 'c2', '--redirect-uri', 'https://a.example/cb')).code, 0);
  t.is((await auth('set-redirect-uri', '--id', 'c1', '--clear')).code, 0);
  t.is((await auth('set-redirect-uri', '--id', 'c2', '--redirect-uri', '')).code, 0);
  t.is(await uriOf('c1'), null);
  t.is(await uriOf('c2'), null);
});

test('set-redirect-uri with a bad URI fails and keeps the old one', async (t) => {
  t.is((await auth('add-client', '--id', 'keep', '--redirect-uri', 'https://a.example/cb')).code, 0);
  for (const bad of ['https://a.example/cb#frag', 'no-scheme', 'data:text/html,hi']) {
    const result = await auth('set-redirect-uri', '--id', 'keep', '--redirect-uri', bad);
    t.is(result.code, 1);
    t.true(result.stderr.startsWith('Invalid redirect URI'), result.stderr);
  }
  t.is(await uriOf('keep'), 'https://a.example/cb');
});

test('set-redirect-uri with an unknown id or bad options fails with exit 1', async (t) => {
  const unknown = await auth('set-redirect-uri', '--id', 'ghost', '--redirect-uri', 'https://a.example/cb');
  t.is(unknown.code, 1);
  t.is(unknown.stderr, "Client ID 'ghost' does not exist.\n");
  const neither = await auth('set-redirect-uri', '--id', 'ghost');
  t.is(neither.code, 1);
  t.is(neither.stderr, 'Option --redirect-uri required (or --clear to remove it).\n');
  const both = await auth('set-redirect-uri', '--id', 'ghost', '--clear', '--redirect-uri', 'https://a.example/cb');
  t.is(both.code, 1);
  t.is(both.stderr, 'Options --redirect-uri and --clear cannot be used together.\n');
});
