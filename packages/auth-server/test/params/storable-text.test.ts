import test from 'ava';
import { isStorableText } from '../../src/params/storable-text.ts';

test('isStorableText refuses NUL and lone surrogates, accepts everything else', (t) => {
  for (const bad of ['a\u0000b', '\u0000', 'a\uD800', '\uDC00b', 'x\uDC00\uD800y']) t.false(isStorableText(bad), JSON.stringify(bad));
  for (const good of ['', 'bob', 'päss', '😀', 'a\uD83D\uDE00b', '\u0001', '\uFFFD']) t.true(isStorableText(good), JSON.stringify(good));
});
