import test from 'ava';
import { isServiceScope } from '../src/index.ts';

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
