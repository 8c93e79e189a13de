import test from 'ava';
import { waitFor } from '../src/index.ts';

test('waitFor returns the first truthy value of the condition', async (t) => {
  let calls = 0;
  t.is(await waitFor(() => (++calls >= 3 ? `after ${calls}` : undefined), { intervalMs: 1 }), 'after 3');
});

test('waitFor treats a throwing condition as "not yet"', async (t) => {
  let calls = 0;
  const value = await waitFor(async () => {
    if (++calls < 3) throw new Error('connection refused');
    return calls;
  }, { intervalMs: 1 });
  t.is(value, 3);
});

test('waitFor fails once the deadline passes, with the message and the last error', async (t) => {
  const error = await t.throwsAsync(waitFor(() => {
    throw new Error('still down');
  }, { timeoutMs: 30, intervalMs: 1, message: () => 'the server never came back' }));
  t.regex(error.message, /waited 30 ms: the server never came back \(last error: still down\)/);
});
