import test from 'ava';
import { toProblem } from '@heroes/http-kit';
import { authServerUnavailable } from '../../src/auth/challenges.ts';
import { IntrospectionUnavailableError } from '../../src/auth/introspect-token.ts';

const answered = (status: number, body: unknown) => new IntrospectionUnavailableError(`introspection answered ${status}`, { cause: body, status });

test('the authorization server\'s 503 naming its database → 503 with that database message', (t) => {
  for (const description of ['timed out connection to database', 'unable to connect to database']) {
    const problem = toProblem(authServerUnavailable(answered(503, { error: 'temporarily_unavailable', error_description: description })));
    t.is(problem.status, 503);
    t.deepEqual(problem.body, { error: description });
  }
});

test('any other failure of introspection → 503 naming the authorization server', (t) => {
  const cases: Array<[unknown, string]> = [
    [new IntrospectionUnavailableError('authorization server unreachable'), 'authorization server unavailable'],
    [answered(503, { error: 'temporarily_unavailable', error_description: 'busy' }), 'authorization server cannot validate tokens right now'],
    [answered(503, 'not json'), 'authorization server cannot validate tokens right now'],
    [answered(500, { error: 'server_error', error_description: 'database exploded' }), 'authorization server unavailable'],
  ];
  for (const [cause, message] of cases) t.deepEqual(toProblem(authServerUnavailable(cause)).body, { error: message });
});
