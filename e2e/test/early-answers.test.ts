/**
 * Early answers through the edge, read by fetch/undici from another process
 * (no `Expect: 100-continue`, the upload still going when the answer comes):
 * both servers linger (keep reading and discarding the rest for a bounded
 * time and size) instead of resetting the upload, and the edge relays the
 * authorization server's early answer instead of reporting the cut upload
 * as "authorization server unavailable".
 */
import test from 'ava';
import { createTestDatabase, type TestDatabase } from '@heroes/test-kit';
import { uploadFromAnotherProcess, type UploadOutcome } from '@heroes/test-kit';
import { startInProcessStack, type InProcessStack } from './_helpers/in-process-stack.ts';

const MB = 1024 * 1024;
let database: TestDatabase;
let stack: InProcessStack | undefined;
let edge = '';

test.before(async () => {
  database = await createTestDatabase();
  stack = await startInProcessStack(database.url);
  edge = stack.edge;
});

test.after.always(async () => {
  await stack?.close();
  await database?.drop();
});

const statuses = (outcomes: UploadOutcome[]) => outcomes.map((outcome) => ('status' in outcome ? outcome.status : outcome.error));

for (const [path, contentType] of [['/auth/token', 'application/x-www-form-urlencoded'], ['/register', 'application/json']] as const) {
  test(`5 of 5 uploads of 11 MB to ${path} read their 413`, async (t) => {
    const outcomes = await uploadFromAnotherProcess(`${edge}${path}`, { bytes: 11 * MB, times: 5, contentType });
    t.deepEqual(statuses(outcomes), [413, 413, 413, 413, 413]);
  });
}

/**
 * The authorization server's own early refusal, relayed: the OAuth body
 * limit (AUTH_MAX_BODY_BYTES) raised to 1 MiB on both servers so that the
 * edge forwards a 900 KiB JSON upload instead of refusing it itself (at the
 * default 64 KiB it answers 413 from the Content-Length, as the tests above
 * show); the authorization server refuses the media type before reading it.
 */
test('900 KiB of JSON to /auth/code and /auth/token, forwarded: the authorization server\'s refusal (415/400) relayed, never 503', async (t) => {
  const raised = await startInProcessStack(database.url, { authMaxBodyBytes: MB }, { authMaxBodyBytes: MB });
  try {
    for (const path of ['/auth/code', '/auth/token']) {
      const outcomes = await uploadFromAnotherProcess(`${raised.edge}${path}`, { bytes: 900 * 1024, times: 5, contentType: 'application/json' });
      for (const status of statuses(outcomes)) t.true(status === 415 || status === 400, `${path}: ${JSON.stringify(outcomes)}`);
    }
  } finally {
    await raised.close();
  }
});
