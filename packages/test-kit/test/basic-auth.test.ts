import test from 'ava';
import { basic } from '../src/index.ts';

const decoded = (header: string) => Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8');

test('basic form-urlencodes the client id and secret before joining them (RFC 6749 section 2.3.1)', (t) => {
  t.is(decoded(basic('app', 'app-secret')), 'app:app-secret');
  t.is(decoded(basic('my app', 'a:b%é')), 'my+app:a%3Ab%25%C3%A9');
  t.regex(basic('app', ''), /^Basic [A-Za-z0-9+/]+=*$/);
});
