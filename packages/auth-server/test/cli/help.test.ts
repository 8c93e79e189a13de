import test from 'ava';
import { runAuth } from '../_helpers/run-auth.ts';

const commands = ['add-client', 'get-client', 'list-clients', 'remove-client', 'set-scopes', 'set-redirect-uris', 'rotate-secret'];
// No database is needed: these never connect.
const auth = (...args: string[]) => runAuth(args, { databaseUrl: 'postgresql://postgres@127.0.0.1:1/unused' });

test('auth --help lists every command', async (t) => {
  const result = await auth('--help');
  t.is(result.code, 0, result.stderr);
  for (const command of commands) t.regex(result.stdout, new RegExp(`auth ${command}\\b`));
  t.false(result.stdout.includes('#0'), 'option values are named, not #0');
  t.regex(result.stdout, /\[--id,-i <id>\]/);
  t.regex(result.stdout, /\[--allowed-origin <origin>\]/);
});

test('auth with no arguments prints the command list', async (t) => {
  const result = await auth();
  t.is(result.code, 0);
  t.regex(result.stdout, /auth add-client/);
});

for (const command of commands) {
  test(`auth ${command} --help describes the command with examples`, async (t) => {
    const result = await auth(command, '--help');
    t.is(result.code, 0, result.stderr);
    t.regex(result.stdout, /\$ auth /);
    t.regex(result.stdout, /Details/);
    t.regex(result.stdout, /Examples/);
    t.regex(result.stdout, new RegExp(`\\$ auth ${command}`));
    t.false(result.stdout.includes('#0'));
  });
}

test('rotate-secret --help documents what happens to public clients', async (t) => {
  t.regex((await auth('rotate-secret', '--help')).stdout, /--make-confidential/);
});

test('an unknown command fails with one line and exit 1', async (t) => {
  const result = await auth('frobnicate', '--id', 'x');
  t.is(result.code, 1);
  t.is(result.stderr, "Unknown command 'frobnicate'. Run 'auth --help' to list the commands.\n");
  t.is(result.stdout, '');
});

test('an unknown option fails with one line and exit 1', async (t) => {
  const result = await auth('add-client', '--id', 'x', '--colour', 'red');
  t.is(result.code, 1);
  t.is(result.stderr.trim().split('\n').length, 1);
  t.regex(result.stderr, /--colour/);
  t.regex(result.stderr, /auth add-client --help/);
});

for (const command of ['add-client', 'set-scopes']) {
  test(`${command} --help states the scope model as the README does`, async (t) => {
    // Clipanion wraps lines: compare with whitespace collapsed.
    const text = (await auth(command, '--help')).stdout.replace(/\s+/g, ' ');
    t.regex(text, /Scope model: a token grants only the scopes it records \(deny by default\)/);
    t.regex(text, /registered without any is allowed exactly "heroes:read heroes:write"/);
    t.regex(text, /"openid" only asks for an ID token and never grants hero access/);
  });
}

test('set-redirect-uri is still a name of set-redirect-uris', async (t) => {
  const result = await auth('set-redirect-uri', '--help');
  t.is(result.code, 0, result.stderr);
  t.regex(result.stdout, /Replace or clear an OAuth 2\.0 client's redirect URIs/);
});

test('--json on a command line that cannot be parsed gives the error as JSON', async (t) => {
  const result = await auth('get-client', '--colour', 'red', '--json');
  t.is(result.code, 1);
  t.is(result.stdout, '');
  const error = JSON.parse(result.stderr) as { error: string; message: string };
  t.is(error.error, 'usage_error');
  t.regex(error.message, /--colour/);
  const extra = await auth('get-client', 'web', 'again', '--json');
  t.is(extra.code, 1);
  t.deepEqual(JSON.parse(extra.stderr), { error: 'usage_error', message: "Unexpected arguments or options. Run 'auth get-client --help' for usage." });
});

for (const command of commands) {
  test(`auth ${command} takes --json`, async (t) => {
    t.regex((await auth(command, '--help')).stdout, /--json/);
  });
}
