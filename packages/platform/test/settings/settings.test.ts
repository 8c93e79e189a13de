import test from 'ava';
import {
  defaultsOf,
  defineSettings,
  EnvValueError,
  integer,
  loadSettings,
  parseBoolean,
  parseCidrList,
  parseHttpUrl,
  parsePort,
  parseText,
  readSettings,
  settingsMarkdown,
  SettingsError,
  type ReadSetting,
} from '../../src/index.ts';

const PORT = { env: 'PORT', parse: parsePort, default: 8888, doc: 'public port' };

const TABLE = defineSettings({
  url: { env: 'DB_URL', parse: parseText, secret: true, doc: 'where the data is' },
  port: PORT,
  other: { env: 'OTHER_PORT', parse: parsePort, default: (read: ReadSetting) => read(PORT) + 1, defaultDoc: '`$PORT + 1`', doc: 'derived' },
  proxy: { env: 'TRUST', parse: parseBoolean, default: false, doc: 'trust' },
  token: { env: 'TOKEN', parse: integer({ min: 4, max: 31 }), secret: true, optional: true, doc: 'a secret number' },
});

test('defaults fill unset and empty variables; a computed default sees earlier values', (t) => {
  const config = loadSettings(TABLE, { DB_URL: 'x', PORT: '9000', TRUST: '' });
  t.deepEqual(config, { url: 'x', port: 9000, other: 9001, proxy: false });
  t.deepEqual(defaultsOf(TABLE), { port: 8888, proxy: false });
});

test('a computed default reads an earlier entry of its table, whatever its key there, and may refuse', (t) => {
  const derived = { env: 'DERIVED', parse: parsePort, doc: 'derived', default: (read: ReadSetting) => {
    if (read(PORT) === 0) throw new EnvValueError('set when PORT is 0');
    return read(PORT) + 1;
  } };
  t.is(loadSettings({ publicPort: PORT, derived }, { PORT: '9000' }).derived, 9001);
  t.deepEqual(readSettings({ publicPort: PORT, derived }, { PORT: '0' }).problems, ['DERIVED must be set when PORT is 0']);
  t.is(loadSettings({ publicPort: PORT, derived }, { PORT: '0', DERIVED: '1' }).derived, 1);
  t.throws(() => readSettings({ derived }, {}), { message: "DERIVED's default reads PORT: add its entry to the table" });
  t.throws(() => readSettings({ derived, publicPort: PORT }, {}), { message: "DERIVED's default reads PORT: put its entry before DERIVED's" });
});

test('every problem is one line naming its variable, all reported together', (t) => {
  const { problems } = readSettings(TABLE, { PORT: 'abc', OTHER_PORT: '70000', TRUST: 'maybe' });
  t.deepEqual(problems, [
    'DB_URL is required: where the data is',
    "PORT must be an integer from 0 to 65535 (got 'abc')",
    "OTHER_PORT must be an integer from 0 to 65535 (got '70000')",
    "TRUST must be 1/true/yes/on or 0/false/no/off (got 'maybe')",
  ]);
  const error = t.throws(() => loadSettings(TABLE, { PORT: 'abc' }), { instanceOf: SettingsError });
  t.is(error?.problems.length, 2);
});

test('a secret value is never repeated in a problem line; control characters stay escaped', (t) => {
  const { problems } = readSettings(TABLE, { DB_URL: 'x', TOKEN: 'hunter2' });
  t.deepEqual(problems, ['TOKEN must be an integer from 4 to 31']);
  const multiline = readSettings(TABLE, { DB_URL: 'x', PORT: '1\nFAKE LINE' }).problems;
  t.is(multiline.length, 1);
  t.false(multiline[0]!.includes('\n'));
});

test('integers are plain decimal digits only', (t) => {
  const parse = integer({ min: 1 });
  t.is(parse('42'), 42);
  for (const bad of ['0', '-1', '1e3', '0x10', ' 5', '5 ', '1.5', '99999999999999999']) t.throws(() => parse(bad), undefined, bad);
});

test('URLs and CIDR lists', (t) => {
  t.is(parseHttpUrl('https://heroes.example/'), 'https://heroes.example');
  for (const bad of ['ftp://a', 'http://a/?q=1', 'http://a/#f', 'http://u:p@a', 'nope']) t.throws(() => parseHttpUrl(bad), undefined, bad);
  t.deepEqual(parseCidrList('10.0.0.0/8, fd00::/8 192.168.1.5'), [
    { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
    { address: 'fd00::', prefix: 8, family: 'ipv6' },
    { address: '192.168.1.5', prefix: 32, family: 'ipv4' },
  ]);
  for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/8/1', '::/129']) t.throws(() => parseCidrList(bad), undefined, bad);
});

test('README rows come from the table', (t) => {
  t.deepEqual(settingsMarkdown(TABLE), [
    '| `DB_URL` | required | where the data is |',
    '| `PORT` | `8888` | public port |',
    '| `OTHER_PORT` | `$PORT + 1` | derived |',
    '| `TRUST` | `false` | trust |',
    '| `TOKEN` | unset | a secret number |',
  ]);
});
