import test from 'ava';
import { formatScopes, isScopeToken, MAX_SCOPE_LENGTH, MAX_SCOPE_VALUES, parseScopeParameter, splitScopes } from '../src/index.ts';

test('scope tokens are printable ASCII except space, double quote and backslash (RFC 6749 section 3.3)', (t) => {
  for (const token of ['heroes:read', 'a', '!#[]~', 'user.readonly']) t.true(isScopeToken(token), token);
  for (const token of ['', 'a b', 'a"b', 'a\\b', 'é', 'a\u0000', 'a\t']) t.false(isScopeToken(token), JSON.stringify(token));
});

test('a scope parameter is tokens separated by single spaces, repeated ones kept once', (t) => {
  t.deepEqual(parseScopeParameter('heroes:read heroes:write heroes:read'), { ok: true, scopes: ['heroes:read', 'heroes:write'] });
  for (const value of ['', ' a', 'a ', 'a  b', 'a\tb', 'a "b"']) {
    t.deepEqual(parseScopeParameter(value), { ok: false, description: 'scope contains invalid characters' }, JSON.stringify(value));
  }
});

test(`at most ${MAX_SCOPE_VALUES} values of at most ${MAX_SCOPE_LENGTH} characters`, (t) => {
  const values = (count: number) => Array.from({ length: count }, (_, i) => `s${i}`).join(' ');
  t.true(parseScopeParameter(values(MAX_SCOPE_VALUES)).ok);
  t.false(parseScopeParameter(values(MAX_SCOPE_VALUES + 1)).ok);
  t.true(parseScopeParameter('x'.repeat(MAX_SCOPE_LENGTH)).ok);
  t.false(parseScopeParameter('x'.repeat(MAX_SCOPE_LENGTH + 1)).ok);
  t.false(parseScopeParameter('x '.repeat(1_000_000)).ok, 'a huge parameter is refused');
});

test('formatScopes joins with single spaces', (t) => {
  t.is(formatScopes(['a', 'b']), 'a b');
  t.is(formatScopes(new Set(['a'])), 'a');
});

test('splitScopes: the values of a stored or typed scope string, empty values of extra spaces dropped', (t) => {
  t.deepEqual(splitScopes('heroes:read heroes:write'), ['heroes:read', 'heroes:write']);
  t.deepEqual(splitScopes(' heroes  openid '), ['heroes', 'openid']);
  t.deepEqual(splitScopes('a a'), ['a', 'a'], 'a repeated value is not its business (parseScopeParameter and the callers decide)');
  for (const empty of ['', '   ', undefined, null]) t.deepEqual(splitScopes(empty), [], JSON.stringify(empty));
  t.deepEqual(splitScopes(formatScopes(['x', 'y:z'])), ['x', 'y:z'], 'the inverse of formatScopes');
});
