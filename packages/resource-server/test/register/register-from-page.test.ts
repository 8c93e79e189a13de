import test from 'ava';
import { REGISTER_ERROR_MESSAGES, REGISTERED } from '@heroes/oauth-scopes';
import { startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';

// The "Create account" form's answers carry codes of a fixed list back to the login page, never text (CWE-451):
// success always, a refusal when the authorization server does not draw the form again (this stand-in answers JSON;
// web-app.test.ts has the real one drawing it).
let auth: FakeAuthServer;
let rs: InProcessServer;

test.before(async () => {
  auth = await startFakeAuthServer();
  rs = await startInProcess(auth.url, { registerAddressLimit: 3 });
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

const RETURN_TO = '/auth/code?client_id=web&response_type=code&state=s';

async function submit(body: string): Promise<URLSearchParams> {
  const res = await fetch(`${rs.url}/register?${new URLSearchParams({ return_to: RETURN_TO })}`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: rs.url }, body, redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`status ${res.status}`);
  const location = res.headers.get('location') ?? '';
  if (!location.startsWith(`${rs.url}${RETURN_TO}&`)) throw new Error(`location ${location}`);
  return new URL(location).searchParams;
}

test('every outcome goes back as a code of the fixed list; nothing the user typed travels in the query', async (t) => {
  const created = await submit('username=Maria+Sk%C5%82odowska&password=radium-long-password');
  t.is(created.get('registered'), REGISTERED);
  t.false(created.toString().includes('Maria'), 'the username is not echoed');
  const cases: Array<[string, string]> = [
    ['username=maria+sk%C5%82odowska&password=other-long-password', 'username_taken'],
    ['username=M%D0%B0ria+Sk%C5%82odowska&password=other-long-password', 'username_similar'],
    ['username=call+%2B1-555-0100+&password=other-long-password', 'username_invalid'],
    ['username=pierre&password=password', 'password_rejected'],
    ['username=pierre&password=', 'missing'],
    ['username=pierre&password=long-enough-pw&extra=Security+alert', 'invalid'],
  ];
  for (const [body, code] of cases) {
    const query = await submit(body);
    t.deepEqual([query.get('prompt'), query.get('register_error')], ['create', code], body);
    t.true(Object.hasOwn(REGISTER_ERROR_MESSAGES, code));
    t.false(query.toString().includes('555') || query.toString().includes('Security'), body);
  }
  const limited = await submit('username=pierre3&password=pierre-long-password');
  t.is(limited.get('register_error'), 'too_many', 'the address limit (3 attempts that passed validation)');
});
