import test from 'ava';
import { basicAuthorization } from '../../src/auth/introspect-token.ts';
import { MalformedAuthorizationError, parseBearerHeader } from '../../src/auth/parse-bearer-header.ts';
import { toTokenInfo } from '../../src/auth/token-info.ts';

test('parseBearerHeader accepts b64token syntax', (t) => {
  t.is(parseBearerHeader(undefined), undefined);
  t.is(parseBearerHeader('Bearer abc-._~+/=='), 'abc-._~+/==');
  t.is(parseBearerHeader('Bearer   abc  '), 'abc');
  t.throws(() => parseBearerHeader(''), { instanceOf: MalformedAuthorizationError });
  t.throws(() => parseBearerHeader('Bearer a=b'), { instanceOf: MalformedAuthorizationError });
});

test('basicAuthorization URL-encodes id and secret (RFC 6749 section 2.3.1)', (t) => {
  const header = basicAuthorization('my client', 'p:a%ss/é');
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString();
  t.is(decoded, 'my+client:p%3Aa%25ss%2F%C3%A9');
});

test('toTokenInfo only trusts active bearer tokens that have not expired', (t) => {
  const now = 1_000;
  t.false(toTokenInfo(null, now).active);
  t.false(toTokenInfo({ active: 'true', token_type: 'Bearer' }, now).active);
  t.false(toTokenInfo({ active: true }, now).active, 'no token_type: a refresh token');
  t.false(toTokenInfo({ active: true, token_type: 'Bearer', exp: 1_000 }, now).active);
  const info = toTokenInfo({ active: true, token_type: 'bearer', exp: 2_000, scope: 'a  b', client_id: 'c', username: 'u', grant_id: 'g' }, now);
  t.deepEqual(info, { active: true, scopes: ['a', 'b'], clientId: 'c', username: 'u', sub: undefined, exp: 2_000, grantId: 'g', audience: undefined });
  t.deepEqual(toTokenInfo({ active: true, token_type: 'Bearer', aud: ['x', 7, 'y'] }, now).audience, ['x', 'y']);
});
