import test from 'ava';
import { parseBasic } from '../../src/middleware/parse-basic.ts';
import { basicHeader } from '../_helpers/http.ts';

test('parseBasic decodes form-urlencoded id and secret', (t) => {
  t.deepEqual(parseBasic(basicHeader('app:conf%2Dsecret')), { id: 'app', secret: 'conf-secret' });
  t.deepEqual(parseBasic(basicHeader('my+app:a+b')), { id: 'my app', secret: 'a b' });
  t.deepEqual(parseBasic(basicHeader('app:')), { id: 'app', secret: '' });
  t.deepEqual(parseBasic(basicHeader('app:a:b')), { id: 'app', secret: 'a:b' });
  t.deepEqual(parseBasic(`basic ${Buffer.from('app:x').toString('base64')}`), { id: 'app', secret: 'x' });
  for (const bad of ['Basic', 'Bearer x', basicHeader('nocolon'), basicHeader(':x'), basicHeader('a:%'), 'Basic ====', 'Basic a']) {
    t.is(parseBasic(bad), undefined, bad);
  }
});
