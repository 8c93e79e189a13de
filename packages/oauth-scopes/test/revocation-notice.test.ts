import test from 'ava';
import { parseRevokedTokens } from '../src/index.ts';

test('string fields of a JSON object are kept; anything else is dropped', (t) => {
  t.deepEqual(parseRevokedTokens('{"grantId":"g","tokenHash":"ab","other":1}'), { grantId: 'g', tokenHash: 'ab' });
  t.deepEqual(parseRevokedTokens('{"clientId":"c","grantId":5}'), { clientId: 'c' });
});

test('nothing usable → undefined (the listener forgets everything)', (t) => {
  for (const payload of [undefined, '', 'not json', '"text"', 'null', '[]', '{}', '{"grantId":""}', '{"grantId":{}}']) {
    t.is(parseRevokedTokens(payload), undefined, String(payload));
  }
});
