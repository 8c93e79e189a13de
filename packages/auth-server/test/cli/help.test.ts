import test from 'ava';
import { runAuth } from '../_helpers/run-auth.ts';

const commands = ['add-client', 'list-clients', 'remove-client', 'set-scopes', 'set-redirect-uri', 'rotate-secret'];
// No database is needed: these never connect.
const auth = (...args: string[]) => runAuth(args, { databaseUrl: 'postgresql://postgres@127.0.0.1:1/unused' });

test('auth --help lists every command', async (t) => {
  const result = await auth('--help');
  t.is(result.code, 0, result.stderr);
  for (const command of commands) t.regex(result.stdout, new RegExp(`auth ${command}\\b`));
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
