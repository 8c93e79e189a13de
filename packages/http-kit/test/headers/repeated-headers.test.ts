import test from 'ava';
import { repeatedSingleValuedHeader } from '../../src/index.ts';

test('a repeated Host, Content-Length, Content-Type or Authorization is found, whatever its case', (t) => {
  t.is(repeatedSingleValuedHeader(['Host', 'a', 'host', 'b']), 'Host');
  t.is(repeatedSingleValuedHeader(['Host', 'a', 'content-length', '1', 'Content-Length', '1']), 'Content-Length');
  t.is(repeatedSingleValuedHeader(['Content-Type', 'a', 'Accept', 'b', 'CONTENT-TYPE', 'c']), 'Content-Type');
  t.is(repeatedSingleValuedHeader(['authorization', 'Bearer a', 'Authorization', 'Bearer a']), 'Authorization');
});

test('each once, and list-valued headers repeated, pass', (t) => {
  t.is(repeatedSingleValuedHeader([]), undefined);
  t.is(repeatedSingleValuedHeader(['Host', 'a', 'Content-Type', 'b', 'Content-Length', '2', 'Authorization', 'x']), undefined);
  t.is(repeatedSingleValuedHeader(['Accept', 'a', 'Accept', 'b', 'Cookie', 'c', 'cookie', 'd', 'X-Host', 'e', 'Hosts', 'f', 'Host', 'g']), undefined);
});
