import test from 'ava';
import { authorityScopes, HERO_SCOPES, HEROES_READ, HEROES_WRITE, isServiceScope, mayGrant } from '../src/index.ts';

test('the service knows openid, heroes, the hero scopes and their sub-scopes', (t) => {
  for (const scope of ['openid', 'heroes', 'heroes:read', 'heroes:write', 'heroes:read:own', 'heroes:write:names', 'heroes:read.readonly']) {
    t.true(isServiceScope(scope), scope);
  }
});

test('anything else is unknown: other names, lookalikes, parents of nothing the service checks', (t) => {
  for (const scope of ['admin', 'hero', 'heroes2', 'heroes:delete', 'heroes:', 'heroes::read', 'openid:x', 'user', 'heroes.readonly', 'HEROES']) {
    t.false(isServiceScope(scope), scope);
  }
});

test('the hero scope constants are the scopes the hero routes require', (t) => {
  t.is(HEROES_READ, 'heroes:read');
  t.is(HEROES_WRITE, 'heroes:write');
  t.deepEqual(HERO_SCOPES, ['heroes:read', 'heroes:write']);
});

test('mayGrant: openid to any client, anything else only when an allowed scope grants it', (t) => {
  t.true(mayGrant([], 'openid'));
  t.true(mayGrant(['heroes:read'], 'openid'));
  t.true(mayGrant(['heroes'], 'heroes:write'), 'a parent grants its sub-scopes');
  t.true(mayGrant(['heroes:read'], 'heroes:read'));
  t.false(mayGrant(['heroes:read'], 'heroes:write'));
  t.false(mayGrant(['heroes:read'], 'heroes'), 'a sub-scope does not grant its parent');
  t.false(mayGrant(['openid'], 'heroes:read'), 'openid is no authority');
});

test('authorityScopes leaves openid out, keeping the order', (t) => {
  t.deepEqual(authorityScopes(['openid', 'heroes:write', 'heroes:read']), ['heroes:write', 'heroes:read']);
  t.deepEqual(authorityScopes(['openid']), []);
  t.deepEqual(authorityScopes([]), []);
});
