/**
 * isOwnNormalForm (proxy/normalize-path.ts): the forwarder judges such a
 * path as it is, without normalizePath's URL parse (GET /heroes). Every
 * path it admits must be its own normal form, or a path that normalises
 * into /auth or /.well-known/ could slip past the forwarder's judgement.
 */
import test from 'ava';
import { isOwnNormalForm, normalizePath } from '../../src/proxy/normalize-path.ts';
import { FORWARDED_PATHS } from '../../src/proxy/forward-to-auth-server.ts';

test('every path admitted is its own normal form: each ASCII character and a few others, alone, doubled and between segments', (t) => {
  const characters = [...Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)), 'é', '\u00a0', '\u2028', '😀'];
  let admitted = 0;
  for (const c of characters) {
    for (const path of [`/${c}`, `/a${c}b`, `/${c}${c}`, `/x/${c}/y`, `/${c}/auth`, `/au${c}th/x`]) {
      if (!isOwnNormalForm(path)) continue;
      admitted++;
      t.is(normalizePath(path), path, JSON.stringify(path));
    }
  }
  t.true(admitted > 70 * 6, 'pchar without % and . is admitted');
});

test('paths that normalise into another one are never admitted', (t) => {
  // [path, what normalizePath makes of it]
  const table: [string, string | undefined][] = [
    ['/x/../auth/token', '/auth/token'],
    ['/x/%2e%2e/auth/token', '/auth/token'],
    ['/x%2f..%2fauth/token', '/auth/token'],
    ['/x\\..\\auth', '/auth'],
    ['/auth#x', '/auth'],
    ['/.well-known/openid-configuration', '/.well-known/openid-configuration'],
    ['/./auth/x', '/auth/x'],
    ['/au\tth/x', '/auth/x'],
    ['/au\nth', '/auth'],
    ['/heroes?x', '/heroes'],
    ['heroes', undefined],
    ['/a b', '/a%20b'],
    ['/a"b', '/a%22b'],
  ];
  for (const [path, normalised] of table) {
    t.is(normalizePath(path), normalised, JSON.stringify(path));
    t.false(isOwnNormalForm(path), JSON.stringify(path));
  }
});

test('the paths the edge answers itself are admitted, and none of them is forwarded', (t) => {
  for (const path of ['/heroes', '/heroes/17', '/register', '/docs/oauth2-redirect', '/docs', '/app/heroes/3', '/health/live', '/metrics', '/', '/authx', '/authority']) {
    t.true(isOwnNormalForm(path), path);
    t.false(FORWARDED_PATHS.test(path), path);
  }
  t.true(isOwnNormalForm('/auth/token') && FORWARDED_PATHS.test('/auth/token'), 'admitted but forwarded: the forwarder still checks the prefix');
});
