import test from 'ava';
import { basicAuthorization } from '../../src/auth/introspect-token.ts';
import { MalformedAuthorizationError, parseAccessTokenHeader } from '../../src/auth/parse-bearer-header.ts';
import { toTokenInfo } from '../../src/auth/token-info.ts';

test('parseAccessTokenHeader accepts b64token syntax under Bearer and DPoP', (t) => {
  t.is(parseAccessTokenHeader(undefined), undefined);
  t.deepEqual(parseAccessTokenHeader('Bearer abc-._~+/=='), { scheme: 'bearer', token: 'abc-._~+/==' });
  t.deepEqual(parseAccessTokenHeader('Bearer   abc  '), { scheme: 'bearer', token: 'abc' });
  t.deepEqual(parseAccessTokenHeader('dpop abc'), { scheme: 'dpop', token: 'abc' });
  t.throws(() => parseAccessTokenHeader(''), { instanceOf: MalformedAuthorizationError });
  t.throws(() => parseAccessTokenHeader('Bearer a=b'), { instanceOf: MalformedAuthorizationError });
  t.throws(() => parseAccessTokenHeader('Basic abc'), { instanceOf: MalformedAuthorizationError });
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

test('toTokenInfo: a DPoP token carries its key thumbprint, and is inactive without a valid one', (t) => {
  const jkt = 'a'.repeat(43);
  t.is(toTokenInfo({ active: true, token_type: 'DPoP', cnf: { jkt } }, 1_000).jkt, jkt);
  t.false(toTokenInfo({ active: true, token_type: 'DPoP' }, 1_000).active);
  t.false(toTokenInfo({ active: true, token_type: 'DPoP', cnf: { jkt: 'short' } }, 1_000).active);
  t.is(toTokenInfo({ active: true, token_type: 'Bearer', cnf: { jkt } }, 1_000).jkt, undefined, 'only a DPoP token is bound');
});
