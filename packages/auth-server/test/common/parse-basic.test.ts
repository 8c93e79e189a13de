import test from 'ava';
import { parseBasic } from '../../src/common/parse-basic.ts';
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

test('parseBasic checks structure only: credentials outside VSCHAR are returned decoded (the caller refuses them)', (t) => {
  t.deepEqual(parseBasic(basicHeader('app:s3cr3t%3A%2B%2F%25%C3%A9')), { id: 'app', secret: 's3cr3t:+/%é' });
  t.deepEqual(parseBasic(basicHeader('app:sécret')), { id: 'app', secret: 'sécret' });
  t.deepEqual(parseBasic(basicHeader('a%00b:x')), { id: 'a\u0000b', secret: 'x' });
});
