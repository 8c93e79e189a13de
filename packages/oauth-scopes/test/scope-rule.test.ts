import test from 'ava';
import { grantsScope, isGranted } from '../src/index.ts';

// [held, wanted, held grants wanted] — the cases both servers rely on.
const CASES: ReadonlyArray<readonly [string, string, boolean]> = [
  // equal strings
  ['heroes:read', 'heroes:read', true],
  ['user', 'user', true],
  ['user.readonly', 'user.readonly', true],
  ['a::b', 'a::b', true],
  // a parent grants its sub-scopes, never the other way round
  ['heroes', 'heroes:read', true],
  ['heroes', 'heroes:write', true],
  ['user', 'user:foo', true],
  ['user', 'user:foo:bar', true],
  ['user:foo', 'user:foo:bar', true],
  ['heroes:read', 'heroes', false],
  ['user:foo', 'user', false],
  ['heroes:read', 'heroes:write', false],
  ['heroes:read', 'heroes:read:x', true],
  // names match whole segments
  ['user', 'users', false],
  ['user', 'user2:foo', false],
  ['hero', 'heroes:read', false],
  ['heroes', 'heroesx', false],
  // modifiers restrict
  ['user', 'user.readonly', true],
  ['user', 'user:foo.readonly', true],
  ['user.readonly', 'user', false],
  ['user.readonly', 'user:foo', false],
  ['user.readonly', 'user:foo.readonly', false],
  ['user.readonly', 'user.write', false],
  ['heroes.readonly', 'heroes:read', false],
  // outside the structure: only equal strings
  ['a', 'a::b', false],
  ['a', 'a:', false],
  ['a:', 'a:b', false],
  ['a.b', 'a.b:c', false],
  ['a', 'a.', false],
  ['a', 'a.b.c', false],
  // openid and other scopes never grant hero scopes
  ['openid', 'heroes:read', false],
  ['openid', 'heroes:write', false],
  ['heroes:read', 'openid', false],
];

for (const [held, wanted, expected] of CASES) {
  test(`${held} ${expected ? 'grants' : 'does not grant'} ${wanted}`, (t) => {
    t.is(grantsScope(held, wanted), expected);
  });
}

test('isGranted: some held scope grants the wanted one', (t) => {
  t.true(isGranted(['foo', 'heroes'], 'heroes:write'));
  t.false(isGranted(['openid', 'heroes:read'], 'heroes:write'));
  t.false(isGranted([], 'heroes:read'));
});
