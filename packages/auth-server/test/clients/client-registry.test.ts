import test from 'ava';
import {
  ClientRegistryError,
  hashClientSecret,
  parseScopes,
  validateClientId,
  validateRedirectUri,
  validateRedirectUris,
  validateScope,
  verifyClientSecret,
} from '../../src/clients/index.ts';

test('parseScopes splits on spaces, collapses repeats and validates tokens', (t) => {
  t.deepEqual(parseScopes('a b'), ['a', 'b']);
  t.deepEqual(parseScopes('  a   b a  '), ['a', 'b']);
  t.deepEqual(parseScopes(''), []);
  t.deepEqual(parseScopes('   '), []);
  t.deepEqual(parseScopes(undefined), []);
  t.deepEqual(parseScopes('user:foo.readonly !#[]^~'), ['user:foo.readonly', '!#[]^~']);
  t.throws(() => parseScopes('a "b"'), { instanceOf: ClientRegistryError, message: /^Invalid authorization scope '"b"'/ });
});

test('validateScope follows RFC 6749 3.3 scope-token', (t) => {
  for (const ok of ['a', 'heroes:write', '!', '~', '[x]']) t.is(validateScope(ok), ok);
  for (const bad of ['', ' ', 'a b', '"', '\\', '\u00e9', '\x7f', '\t']) t.throws(() => validateScope(bad));
});

test('validateClientId allows printable ASCII without colon, up to 255', (t) => {
  t.is(validateClientId('com.hero.app'), 'com.hero.app');
  t.is(validateClientId('x'.repeat(255)).length, 255);
  for (const bad of ['', 'a:b', 'x'.repeat(256), 'new\nline', ' lead', 'h\u00e9ro']) t.throws(() => validateClientId(bad));
});

test('client ids and redirect URIs follow the one text rule for identifiers: C1 controls and invisible characters named', (t) => {
  t.throws(() => validateClientId('app\u0085'), { message: "Invalid client ID 'app\\u0085': it must not contain control characters; only printable ASCII characters are allowed." });
  t.throws(() => validateClientId('app\u200b'), { message: "Invalid client ID 'app\\u200b': it must not contain invisible characters (U+200B); only printable ASCII characters are allowed." });
  t.throws(() => validateRedirectUri('https://a.example/\u009bcb'), { message: "Invalid redirect URI 'https://a.example/\\u009bcb': it must not contain control characters." });
  t.throws(() => validateRedirectUri('https://a.example/\u2060cb'), { message: "Invalid redirect URI 'https://a.example/\\u2060cb': it must not contain invisible characters (U+2060)." });
});

test('validateRedirectUri takes absolute URIs without fragment', (t) => {
  for (const ok of ['https://a.example/cb', 'http://localhost:3000/cb', 'com.example.app:/cb', 'myapp://callback', 'https://a.example/cb?x=1&y=2']) {
    t.is(validateRedirectUri(ok), ok);
  }
  for (const bad of ['', 'cb', '/cb', '//a.example/cb', 'https://a.example/cb#', 'https://a.example/#x', 'javascript:alert(1)', 'https://', 'http:/x', 'https://a b/', `https://a.example/${'x'.repeat(2100)}`]) {
    t.throws(() => validateRedirectUri(bad), { instanceOf: ClientRegistryError }, bad);
  }
});

test('validateRedirectUris keeps each valid URI once, in order, at most 50', (t) => {
  t.deepEqual(validateRedirectUris(['https://a.example/cb', 'https://b.example/cb', 'https://a.example/cb']), ['https://a.example/cb', 'https://b.example/cb']);
  t.deepEqual(validateRedirectUris([]), []);
  t.throws(() => validateRedirectUris(['https://a.example/cb', 'no-scheme']), { message: /^Invalid redirect URI 'no-scheme'/ });
  const fifty = Array.from({ length: 50 }, (_, i) => `https://a.example/${i}`);
  t.is(validateRedirectUris(fifty).length, 50);
  t.throws(() => validateRedirectUris([...fifty, 'https://a.example/50']), { message: 'At most 50 redirect URIs per client.' });
});

test('validateRedirectUris: beside a private-use scheme URI (a native app) http must be loopback, https must not', (t) => {
  for (const ok of [['com.example.app:/cb', 'http://127.0.0.1:8080/cb', 'http://localhost/cb', 'http://[::1]/cb', 'https://app.example/cb'], ['https://app.example/cb', 'http://app.example/cb']]) {
    t.deepEqual(validateRedirectUris(ok), ok);
  }
  for (const [bad, misfit] of [[['com.example.app:/cb', 'http://app.example/cb'], 'http://app.example/cb'], [['https://localhost/cb', 'myapp://cb'], 'https://localhost/cb']] as const) {
    t.throws(() => validateRedirectUris(bad), { message: new RegExp(`^Invalid redirect URI '${misfit.replace(/[./]/g, '\\$&')}' beside the private-use scheme URI`) });
  }
});

test('secrets are hashed with bcrypt and verified against the hash', async (t) => {
  const hashedSecret = await hashClientSecret('s3cret', 4);
  t.true(await verifyClientSecret('s3cret', hashedSecret));
  t.false(await verifyClientSecret('nope', hashedSecret));
  t.false(await verifyClientSecret('', hashedSecret));
  t.false(await verifyClientSecret('s3cret', null));
});
