import test from 'ava';
import { runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });
const urisOf = async (id: string) => (await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id } })).redirectUris;

test('set-redirect-uri (the one-URI name) sets the redirect URI exactly as given', async (t) => {
  t.is((await auth('add-client', '--id', 'web', '--secret', 's')).code, 0);
  const result = await auth('set-redirect-uri', '--id', 'web', '--redirect-uri', 'https://app.example.com/cb?x=1');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `Client 'web' updated (confidential, redirect URI https://app.example.com/cb?x=1, default scopes: heroes:read heroes:write) in ${ctx.where}.\n`);
  t.deepEqual(await urisOf('web'), ['https://app.example.com/cb?x=1']);
});

test('set-redirect-uris replaces the whole list with the repeated --redirect-uri values', async (t) => {
  t.is((await auth('add-client', '--id', 'list', '--redirect-uri', 'https://old.example/cb')).code, 0);
  const result = await auth('set-redirect-uris', '--id', 'list', '--redirect-uri', 'https://a.example/cb', '-r', 'http://127.0.0.1:8080/cb');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `Client 'list' updated (public, redirect URIs https://a.example/cb http://127.0.0.1:8080/cb, default scopes: heroes:read heroes:write) in ${ctx.where}.\n`);
  t.deepEqual(await urisOf('list'), ['https://a.example/cb', 'http://127.0.0.1:8080/cb']);
});

test('set-redirect-uris --clear and --redirect-uri "" remove them all', async (t) => {
  t.is((await auth('add-client', '--id', 'c1', '--redirect-uri', 'https://a.example/cb', '--redirect-uri', 'https://b.example/cb')).code, 0);
  t.is((await auth('add-client', '--id', 'c2', '--redirect-uri', 'https://a.example/cb')).code, 0);
  t.is((await auth('set-redirect-uris', '--id', 'c1', '--clear')).code, 0);
  t.is((await auth('set-redirect-uri', '--id', 'c2', '--redirect-uri', '')).code, 0);
  t.deepEqual(await urisOf('c1'), []);
  t.deepEqual(await urisOf('c2'), []);
});

test('set-redirect-uris with a bad URI among good ones fails and keeps the old list', async (t) => {
  t.is((await auth('add-client', '--id', 'keep', '--redirect-uri', 'https://a.example/cb')).code, 0);
  for (const bad of ['https://a.example/cb#frag', 'no-scheme', 'data:text/html,hi', '']) {
    const result = await auth('set-redirect-uris', '--id', 'keep', '--redirect-uri', 'https://fine.example/cb', '--redirect-uri', bad);
    t.is(result.code, 1);
    t.true(result.stderr.startsWith('Invalid redirect URI'), result.stderr);
  }
  t.deepEqual(await urisOf('keep'), ['https://a.example/cb']);
});

test('set-redirect-uris with an unknown id or bad options fails with exit 1', async (t) => {
  const unknown = await auth('set-redirect-uris', '--id', 'ghost', '--redirect-uri', 'https://a.example/cb');
  t.is(unknown.code, 1);
  t.is(unknown.stderr, "Client ID 'ghost' does not exist.\n");
  const neither = await auth('set-redirect-uri', '--id', 'ghost');
  t.is(neither.code, 1);
  t.is(neither.stderr, 'Option --redirect-uri required (or --clear to remove them).\n');
  const both = await auth('set-redirect-uris', '--id', 'ghost', '--clear', '--redirect-uri', 'https://a.example/cb');
  t.is(both.code, 1);
  t.is(both.stderr, 'Options --redirect-uri and --clear cannot be used together.\n');
});
