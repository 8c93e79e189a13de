import test from 'ava';
import { confusableSkeleton, prepareUsername, usernameKey } from '../src/index.ts';

const keyOf = (typed: string) => {
  const prepared = prepareUsername(typed);
  return prepared.ok ? prepared.key : prepared.problem;
};

test('look-alikes (case, width, spacing, invisible characters, other scripts) all map to one key, or are refused', (t) => {
  t.is(keyOf('alice'), 'alice');
  t.is(keyOf('Alice'), 'alice');
  t.is(keyOf('ALICE'), 'alice');
  t.is(keyOf('ａｌｉｃｅ'), 'alice', 'fullwidth maps to its usual width (RFC 8265 3.3.1)');
  t.is(keyOf('jose\u0301'), 'jos\u00e9', 'NFD and NFC spellings share a key');
  t.is(keyOf('José'), 'jos\u00e9');
  t.is(keyOf('alice '), 'must not start or end with a space');
  t.is(keyOf(' alice'), 'must not start or end with a space');
  t.is(keyOf('alice\u3000'), 'must not start or end with a space', 'the ideographic space is a space after width mapping');
  t.is(keyOf('ali\u200Bce'), 'must not contain invisible characters (U+200B)');
  t.is(keyOf('   '), 'must not start or end with a space');
  t.is(keyOf('\u200B\u200C'), 'must not contain invisible characters (U+200B)');
  t.is(keyOf(''), 'must not be empty');
  t.is(keyOf('ali\u0085ce'), 'must not contain control characters');
  t.is(keyOf('ali\tce'), 'must not contain control characters');
  t.is(keyOf('ali\u00A0ce'), 'must not contain tabs, line breaks or spaces other than a plain space');
  t.is(keyOf('mary  jane'), 'must not contain two spaces in a row');
  t.is(keyOf('Mary Jane'), 'mary jane');
});

test('usernameKey is the sign-in lookup: the key, or nothing for what no account can be named', (t) => {
  t.is(usernameKey('Alice'), 'alice');
  t.is(usernameKey('ａｌｉｃｅ'), 'alice');
  t.is(usernameKey('alice '), undefined);
  t.is(usernameKey('a\uD800'), undefined);
});

test('the UTS #39 skeleton catches look-alikes from other scripts, digits and letter pairs', (t) => {
  const skeletonOf = (typed: string) => {
    const prepared = prepareUsername(typed);
    if (!prepared.ok) throw new Error(prepared.problem);
    return prepared.skeleton;
  };
  t.is(skeletonOf('\u0430lice'), skeletonOf('alice'), 'Cyrillic а');
  t.is(skeletonOf('\u0391LICE'), skeletonOf('alice'), 'Greek Α, case-mapped first');
  t.is(skeletonOf('\u0440ayp\u0430l'), skeletonOf('paypal'), 'Cyrillic р and а');
  t.is(skeletonOf('rnary'), skeletonOf('mary'), 'rn looks like m');
  t.not(skeletonOf('bob'), skeletonOf('rob'));
  t.not(skeletonOf('alice'), skeletonOf('alicia'));
  t.is(confusableSkeleton('e\u0301'), confusableSkeleton('\u00e9'));
});
