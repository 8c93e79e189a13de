import test from 'ava';
import bcrypt from 'bcrypt';
import { linkedAuthBin, printedSecret, runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });

test('add-client registers a confidential client with a hashed secret', async (t) => {
  const result = await auth('add-client', '--id', 'conf', '--secret', 's3cret-value', '--allowed-scopes', 'heroes heroes:write', '--redirect-uri', 'https://app.example.com/cb');
  t.is(result.code, 0, result.stderr);
  t.like(JSON.parse(result.stderr), { msg: 'audit event', audit: { type: 'client.added', clientId: 'conf' } }, 'stderr: the one audit line');
  t.false(result.stderr.includes('s3cret-value'));
  t.regex(result.stdout, /^Client 'conf' added \(confidential, redirect URI https:\/\/app\.example\.com\/cb, scopes: heroes heroes:write\) to database "[^"]+" at [\w.]+:\d+\.\n$/);
  t.false(result.stdout.includes('s3cret-value'));
  const row = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'conf' } });
  t.truthy(row.hashedSecret);
  t.not(row.hashedSecret, 's3cret-value');
  t.false(row.hashedSecret!.includes('s3cret-value'));
  t.regex(row.hashedSecret!, /^\$2[aby]\$10\$/, 'bcrypt, default cost 10');
  t.true(await bcrypt.compare('s3cret-value', row.hashedSecret!));
  t.false(await bcrypt.compare('wrong', row.hashedSecret!));
  t.deepEqual(row.redirectUris, ['https://app.example.com/cb']);
  t.deepEqual(row.allowedScopes, ['heroes', 'heroes:write']);
});

test('add-client without a secret registers a public client', async (t) => {
  const result = await auth('add-client', '--id', 'pub');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `Client 'pub' added (public, no redirect URI, default scopes: heroes:read heroes:write) to ${ctx.where}.\n`);
  const row = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'pub' } });
  t.is(row.hashedSecret, null);
  t.deepEqual(row.redirectUris, []);
  t.deepEqual(row.allowedScopes, []);
});

test('add-client --generate-secret prints a strong secret once and stores its hash', async (t) => {
  const result = await auth('add-client', '--id', 'gen', '--generate-secret');
  t.is(result.code, 0, result.stderr);
  const secret = printedSecret(result.stdout);
  t.truthy(secret);
  t.regex(secret!, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
  t.is(result.stdout.split(secret!).length - 1, 1, 'printed exactly once');
  const row = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'gen' } });
  t.true(await bcrypt.compare(secret!, row.hashedSecret!));
  const other = await auth('add-client', '--id', 'gen2', '--generate-secret');
  t.not(printedSecret(other.stdout), secret);
});

test('add-client with a taken id fails with exit 1 and changes nothing', async (t) => {
  t.is((await auth('add-client', '--id', 'dup', '--secret', 'first')).code, 0);
  const before = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'dup' } });
  const result = await auth('add-client', '--id', 'dup', '--secret', 'second', '--allowed-scopes', 'heroes');
  t.is(result.code, 1);
  t.is(result.stderr, "Client ID 'dup' already exists.\n");
  t.is(result.stdout, '');
  const after = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'dup' } });
  t.deepEqual(after, before);
  t.true(await bcrypt.compare('first', after.hashedSecret!));
});

test('add-client without --id fails with one line and writes nothing', async (t) => {
  const result = await auth('add-client', '--secret', 'x', '--allowed-scopes', 'orphan-scope');
  t.is(result.code, 1);
  t.is(result.stderr, 'Option --id required.\n');
  t.is(result.stdout, '');
  t.is(await ctx.db.oAuthClient.count({ where: { allowedScopes: { has: 'orphan-scope' } } }), 0);
});

test('add-client with --id but no value fails with one line', async (t) => {
  const result = await auth('add-client', '--id');
  t.is(result.code, 1);
  t.is(result.stderr.trim().split('\n').length, 1);
  t.regex(result.stderr, /--id/);
});

for (const [scopes, bad] of [['heroes "quoted"', '"quoted"'], ['a\\b', 'a\\b'], ['ok h\u00e9ro', 'h\\u00e9ro'], ['tab\there', 'tab\\u0009here']] as const) {
  test(`add-client rejects the malformed scope list ${JSON.stringify(scopes)}`, async (t) => {
    const id = `badscope-${bad.length}-${scopes.length}`;
    const result = await auth('add-client', '--id', id, '--allowed-scopes', scopes);
    t.is(result.code, 1);
    t.true(result.stderr.startsWith(`Invalid authorization scope '${bad}'`), result.stderr);
    t.is(result.stderr.trim().split('\n').length, 1);
    t.is(await ctx.db.oAuthClient.findUnique({ where: { id } }), null);
  });
}

test('add-client collapses repeated spaces and repeated scopes', async (t) => {
  const result = await auth('add-client', '--id', 'collapse', '--allowed-scopes', '  heroes:write  heroes:read heroes:write  ');
  t.is(result.code, 0, result.stderr);
  t.deepEqual((await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'collapse' } })).allowedScopes, ['heroes:write', 'heroes:read']);
});

for (const uri of ['not a uri', 'relative/path', '/callback', 'https://app.example.com/cb#frag', 'javascript:alert(1)', 'https:///nohost', 'http://exa mple.com/']) {
  test(`add-client rejects the redirect URI ${JSON.stringify(uri)}`, async (t) => {
    const id = `baduri-${Buffer.from(uri).toString('hex').slice(0, 30)}`;
    const result = await auth('add-client', '--id', id, '--redirect-uri', uri);
    t.is(result.code, 1);
    t.true(result.stderr.startsWith('Invalid redirect URI'), result.stderr);
    t.is(result.stderr.trim().split('\n').length, 1);
    t.is(await ctx.db.oAuthClient.findUnique({ where: { id } }), null);
  });
}

test('add-client accepts a private-use scheme redirect URI for a public client', async (t) => {
  const result = await auth('add-client', '--id', 'native', '--redirect-uri', 'com.example.app:/oauth/cb');
  t.is(result.code, 0, result.stderr);
  t.deepEqual((await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'native' } })).redirectUris, ['com.example.app:/oauth/cb']);
});

for (const [id, why] of [['a:b', /':' is not allowed/], ['', /must not be empty/], ['x'.repeat(256), /too long/], ['tab\tid', /printable ASCII/]] as const) {
  test(`add-client rejects the client ID ${JSON.stringify(id.slice(0, 20))}`, async (t) => {
    const result = await auth('add-client', '--id', id);
    t.is(result.code, 1);
    t.regex(result.stderr, why);
    t.is(result.stderr.trim().split('\n').length, 1);
    t.is(await ctx.db.oAuthClient.findUnique({ where: { id } }), null);
  });
}

test('add-client refuses --secret together with --generate-secret', async (t) => {
  const result = await auth('add-client', '--id', 'both', '--secret', 'x', '--generate-secret');
  t.is(result.code, 1);
  t.is(result.stderr, 'Options --secret and --generate-secret cannot be used together.\n');
  t.is(await ctx.db.oAuthClient.findUnique({ where: { id: 'both' } }), null);
});

test('add-client refuses a secret bcrypt would truncate, without echoing it', async (t) => {
  const secret = 'y'.repeat(73);
  const result = await auth('add-client', '--id', 'longsecret', '--secret', secret);
  t.is(result.code, 1);
  t.regex(result.stderr, /longer than 72 bytes/);
  t.false(result.stderr.includes(secret));
  t.is(await ctx.db.oAuthClient.findUnique({ where: { id: 'longsecret' } }), null);
});

for (const [title, secret] of [['non-ASCII', 's3cr3t:+/%\u00e9'], ['a tab', 'tab\tsecret'], ['an emoji', 'secret-\u{1F511}']] as const) {
  test(`add-client refuses a secret with ${title} (RFC 6749 VSCHAR), one line, without echoing it`, async (t) => {
    const id = `badsecret-${title.replace(/\W/g, '')}`;
    const result = await auth('add-client', '--id', id, '--secret', secret);
    t.is(result.code, 1);
    t.is(result.stdout, '');
    t.is(result.stderr, 'Client secret must contain only printable ASCII characters, space to ~ (RFC 6749 Appendix A.2); use --generate-secret for a strong one.\n');
    t.false(result.stderr.includes(secret));
    t.is(await ctx.db.oAuthClient.findUnique({ where: { id } }), null);
  });
}

test('add-client accepts a secret with every printable ASCII special character', async (t) => {
  const secret = ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~Az09';
  const result = await auth('add-client', '--id', 'vschar', '--secret', secret);
  t.is(result.code, 0, result.stderr);
  t.true(await bcrypt.compare(secret, (await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'vschar' } })).hashedSecret!));
});

test('npx auth (the linked bin) works from the repository root', async (t) => {
  const result = await runAuth(['add-client', '--id', 'via-npx'], { databaseUrl: ctx.url, bin: linkedAuthBin });
  t.is(result.code, 0, result.stderr);
  t.truthy(await ctx.db.oAuthClient.findUnique({ where: { id: 'via-npx' } }));
});

test('add-client --allowed-origin (repeatable) stores web origins for browser calls', async (t) => {
  const result = await auth('add-client', '--id', 'spa', '--redirect-uri', 'https://app.example/cb', '--allowed-origin', 'https://app.example', '--allowed-origin', 'http://localhost:5173/', '--allowed-origin', 'https://app.example');
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /origins: https:\/\/app\.example http:\/\/localhost:5173\)/);
  const row = await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'spa' } });
  t.deepEqual(row.allowedOrigins, ['https://app.example', 'http://localhost:5173']);
});

test('add-client --allowed-origin refuses anything but an origin, writing nothing', async (t) => {
  for (const bad of ['https://app.example/path', 'ftp://app.example', 'app.example', 'https://user@app.example', 'https://app.example?x=1']) {
    const result = await auth('add-client', '--id', 'bad-origin', '--allowed-origin', bad);
    t.is(result.code, 1, bad);
    t.is(result.stderr, `Allowed origin '${bad}' is not an origin such as https://app.example (scheme, host and port only).\n`);
  }
  t.is(await ctx.db.oAuthClient.findUnique({ where: { id: 'bad-origin' } }), null);
});

test('add-client --redirect-uri is repeatable: every URI is kept, in order, once', async (t) => {
  const result = await auth('add-client', '--id', 'multi', '--redirect-uri', 'https://app.example/cb', '--redirect-uri', 'http://127.0.0.1:8080/cb', '--redirect-uri', 'com.example.app:/cb', '--redirect-uri', 'https://app.example/cb');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, `Client 'multi' added (public, redirect URIs https://app.example/cb http://127.0.0.1:8080/cb com.example.app:/cb, default scopes: heroes:read heroes:write) to ${ctx.where}.\n`);
  t.deepEqual((await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'multi' } })).redirectUris, ['https://app.example/cb', 'http://127.0.0.1:8080/cb', 'com.example.app:/cb']);
});

test('add-client with one bad redirect URI among several writes nothing', async (t) => {
  const result = await auth('add-client', '--id', 'multi-bad', '--redirect-uri', 'https://app.example/cb', '--redirect-uri', 'https://app.example/cb#frag');
  t.is(result.code, 1);
  t.true(result.stderr.startsWith("Invalid redirect URI 'https://app.example/cb#frag'"), result.stderr);
  t.is(await ctx.db.oAuthClient.findUnique({ where: { id: 'multi-bad' } }), null);
});

test('add-client refuses an unknown scope unless --allow-unknown-scope, writing nothing', async (t) => {
  const refused = await auth('add-client', '--id', 'typo', '--allowed-scopes', 'heroes:raed');
  t.is(refused.code, 1);
  t.is(refused.stderr, "Unknown scope 'heroes:raed': this service knows openid, heroes, heroes:read, heroes:write and their sub-scopes (such as heroes:read:own). Pass --allow-unknown-scope to register it anyway.\n");
  t.is(await ctx.db.oAuthClient.findUnique({ where: { id: 'typo' } }), null);
  const known = await auth('add-client', '--id', 'known', '--allowed-scopes', 'openid heroes heroes:read:own heroes:write:names');
  t.is(known.code, 0, known.stderr);
  const allowed = await auth('add-client', '--id', 'on-purpose', '--allowed-scopes', 'heroes:read reports', '--allow-unknown-scope');
  t.is(allowed.code, 0, allowed.stderr);
  t.deepEqual((await ctx.db.oAuthClient.findUniqueOrThrow({ where: { id: 'on-purpose' } })).allowedScopes, ['heroes:read', 'reports']);
});

test('add-client refuses more than 50 scope values, as the token endpoint does', async (t) => {
  const scopes = Array.from({ length: 51 }, (_, i) => `heroes:read:s${i}`).join(' ');
  const result = await auth('add-client', '--id', 'many-scopes', '--allowed-scopes', scopes);
  t.is(result.code, 1);
  t.is(result.stderr, 'Invalid allowed scopes: more than 50 scope values (the limit of the token endpoint).\n');
  t.is(await ctx.db.oAuthClient.findUnique({ where: { id: 'many-scopes' } }), null);
});
