/**
 * The authorization server's /metrics and /health/* are for operators: through the edge (X-Forwarded-For) refused
 * unless METRICS_ALLOW admits the original client; straight from loopback they answer (common/internal-only.ts).
 */
import test from 'ava';
import { parseCidrList } from '@heroes/platform';
import { startTestServer, type TestServer } from '../_helpers/fixtures.ts';

let closed: TestServer;
let open: TestServer;

test.before(async () => {
  closed = await startTestServer();
  open = await startTestServer({ metricsAllow: parseCidrList('203.0.113.0/24') }, closed.testDb);
});
test.after.always(async () => {
  await open?.close();
  await closed?.close();
});

const PATHS = ['/metrics', '/health/live', '/health/ready'];

for (const path of PATHS) {
  test(`${path} through the edge (forwarded for an outside client) → 403, nothing of the server`, async (t) => {
    for (const forwardedFor of ['198.51.100.7', '127.0.0.1', '203.0.113.9, 198.51.100.7']) {
      const res = await fetch(`${closed.url}${path}`, { headers: { 'x-forwarded-for': forwardedFor } });
      const text = await res.text();
      t.is(res.status, 403, `${forwardedFor}: ${text}`);
      t.notRegex(text, /process_cpu|"checks"|"status"/);
    }
  });

  test(`${path} straight from loopback, or forwarded for a client METRICS_ALLOW admits → 200`, async (t) => {
    t.is((await fetch(`${closed.url}${path}`)).status, 200);
    t.is((await fetch(`${open.url}${path}`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status, 200);
  });
}
