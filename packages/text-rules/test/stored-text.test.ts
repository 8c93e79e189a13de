import test from 'ava';
import { identifierProblem, textProblem } from '../src/index.ts';

const CONTROL = 'must not contain control characters';

test('every Cc is refused: C0, DEL and C1 (U+0085, U+009B CSI)', (t) => {
  for (const value of ['a\u0000b', 'Evil\u001b[2J', 'a\u007fb', 'Evil\u009b[2J', 'next\u0085line', 'a\u0080', '\u009f']) {
    t.is(textProblem(value), CONTROL, JSON.stringify(value));
    t.is(identifierProblem(value), CONTROL, JSON.stringify(value));
  }
});

test('a lone surrogate is refused; a pair is text', (t) => {
  t.is(textProblem('a\uD800'), 'must not contain unpaired surrogates');
  t.is(textProblem('\uDE00a'), 'must not contain unpaired surrogates');
  t.is(textProblem('😀 Smiley'), undefined);
  t.is(identifierProblem('a\uDBFF'), 'must not contain unpaired surrogates');
});

test('display text: invisible characters that change what a name says are refused', (t) => {
  for (const [value, where] of [
    ['Nar\u200Bco', 'U+200B'],
    ['Nar\u200Dco', 'U+200D'],
    ['Nar\u200Cco', 'U+200C'],
    ['\u2060Narco', 'U+2060'],
    ['Nar\u00ADco', 'U+00AD'],
    ['Narco\uFEFF', 'U+FEFF'],
    ['\u3164', 'U+3164'],
    ['\uFE0F', 'U+FE0F'],
    ['Nar\u034Fco', 'U+034F'],
  ] as const) {
    t.is(textProblem(value), `must not contain invisible characters (${where})`, JSON.stringify(value));
  }
});

test('display text: joiners and variation selectors that shape what is visible are kept', (t) => {
  for (const value of ['Mr. Nice', 'José', 'Ναρκο', '👨\u200D👩\u200D👧 Family', '❤\uFE0F Love', '🏳\uFE0F\u200D🌈', 'می\u200Cخواهم', 'क्\u200Dष', '葛\u{E0100}']) {
    t.is(textProblem(value), undefined, JSON.stringify(value));
  }
});

test('identifiers: no format, default-ignorable, private-use or unassigned code point at all', (t) => {
  t.is(identifierProblem('alice'), undefined);
  t.is(identifierProblem('josé'), undefined);
  t.is(identifierProblem('ali\u200Bce'), 'must not contain invisible characters (U+200B)');
  t.is(identifierProblem('a\u202Eb'), 'must not contain invisible characters (U+202E)');
  t.is(identifierProblem('👨\u200D👩'), 'must not contain invisible characters (U+200D)');
  t.is(identifierProblem('a\uE000'), 'must not contain private-use or unassigned characters (U+E000)');
  t.is(identifierProblem('a\u0378'), 'must not contain private-use or unassigned characters (U+0378)');
});

test('linear time: a long run of ignorables is checked in one pass', (t) => {
  t.is(textProblem('a'.repeat(200_000) + '\u200C'.repeat(200_000)), 'must not contain invisible characters (U+200C)');
  t.is(textProblem('क'.repeat(100_000)), undefined);
});
