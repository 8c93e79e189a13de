import test from 'ava';
import { hasLoneSurrogate, isStorableText } from '../../src/params/storable-text.ts';

test('isStorableText refuses NUL and lone surrogates, accepts everything else', (t) => {
  for (const bad of ['a\u0000b', '\u0000', 'a\uD800', '\uDC00b', 'x\uDC00\uD800y']) t.false(isStorableText(bad), JSON.stringify(bad));
  for (const good of ['', 'bob', 'päss', '😀', 'a\uD83D\uDE00b', '\u0001', '\uFFFD']) t.true(isStorableText(good), JSON.stringify(good));
});

test('hasLoneSurrogate accepts surrogate pairs only', (t) => {
  t.false(hasLoneSurrogate('😀'));
  t.true(hasLoneSurrogate('\uD83D'));
  t.true(hasLoneSurrogate('\uDE00\uD83D'));
});
