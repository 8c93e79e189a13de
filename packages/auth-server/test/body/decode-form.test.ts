import test from 'ava';
import { decodeForm, isKnownCharset } from '../../src/body/decode-form.ts';

test('decodeForm: strings, + as space, escapes, repeated keys as arrays (as http-kit FormCodec)', (t) => {
  t.deepEqual(decodeForm(Buffer.from('a=1&b=x+y&c=%2B%26&a=2&d&&e='), 'utf-8'), { a: ['1', '2'], b: 'x y', c: '+&', d: '', e: '' });
});

test('decodeForm: percent escapes are bytes in the declared charset', (t) => {
  t.deepEqual(decodeForm(Buffer.from('p=p%E4ss'), 'iso-8859-1'), { p: 'päss' });
  t.deepEqual(decodeForm(Buffer.from('p=p%C3%A4ss'), 'utf-8'), { p: 'päss' });
  t.deepEqual(decodeForm(Buffer.from('p=%80'), 'windows-1252'), { p: '€' });
  t.deepEqual(decodeForm(Buffer.from('p=p\xe4ss&q=%E4', 'latin1'), 'latin1'), { p: 'päss', q: 'ä' });
});

test('decodeForm: malformed bodies throw', (t) => {
  t.throws(() => decodeForm(Buffer.from('a=%zz'), 'utf-8'));
  t.throws(() => decodeForm(Buffer.from('a=100%'), 'utf-8'));
  t.throws(() => decodeForm(Buffer.from('a=%E4'), 'utf-8'), undefined, 'a latin1 escape is not UTF-8');
  t.throws(() => decodeForm(Buffer.from([0x61, 0x3d, 0xff]), 'utf-8'), undefined, 'invalid raw UTF-8');
  t.throws(() => decodeForm(Buffer.from('a=%ED%A0%80'), 'utf-8'), undefined, 'an encoded surrogate');
});

test('decodeForm: a lone surrogate from a UTF-16 body throws; NUL is kept (the application decides)', (t) => {
  t.throws(() => decodeForm(Buffer.from([0x61, 0x00, 0x3d, 0x00, 0x00, 0xd8]), 'utf-16le'));
  t.deepEqual(decodeForm(Buffer.from('a=%00'), 'utf-8'), { a: '\u0000' });
});

test('decodeForm: __proto__ is an ordinary key', (t) => {
  const form = decodeForm(Buffer.from('__proto__=x&constructor=y'), 'utf-8');
  t.is(Object.getPrototypeOf(form), Object.prototype);
  t.deepEqual(Object.keys(form), ['__proto__', 'constructor']);
});

test('isKnownCharset: iconv-lite names, case-insensitive', (t) => {
  t.true(isKnownCharset('ISO-8859-1'));
  t.true(isKnownCharset('utf-16le'));
  t.false(isKnownCharset('klingon'));
});
