/**
 * AUTH_MANAGEMENT_PORT: kubelet probes a pod from its node's address, which METRICS_ALLOW need not name; the
 * main port refuses it /health/* (403: the pods were restarted), the management port answers it. That port serves
 * nothing but the probes and /metrics (still for METRICS_ALLOW), and no Service publishes it (deploy/kubernetes).
 */
import http from 'node:http';
import os from 'node:os';
import test from 'ava';
import { freePort } from '@heroes/test-kit';
import { startTestServer, type TestServer } from '../_helpers/fixtures.ts';

/** A local address that is not loopback: a node's address as a pod sees it. */
const nodeAddress = Object.values(os.networkInterfaces()).flat().find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

let server: TestServer;
let managementPort: number;
let mainPort: number;

test.before(async () => {
  [managementPort, mainPort] = [await freePort(), await freePort()];
  server = await startTestServer({ host: '0.0.0.0', port: mainPort, managementPort });
});
test.after.always(() => server?.close());

/** GET from `from` (the request's source address) to `to`. */
function get(to: string, port: number, path: string, from: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: to, port, path, localAddress: from, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
  });
}

test.serial('a probe from a node address outside METRICS_ALLOW: 403 on the main port, answered on the management port', async (t) => {
  if (!nodeAddress) return t.fail('this machine has no non-loopback IPv4 address to probe from');
  for (const path of ['/health/live', '/health/ready']) {
    t.is((await get(nodeAddress, mainPort, path, nodeAddress)).status, 403, path);
    const probe = await get(nodeAddress, managementPort, path, nodeAddress);
    t.is(probe.status, 200, probe.body);
  }
  const ready = JSON.parse((await get(nodeAddress, managementPort, '/health/ready', nodeAddress)).body) as { checks: Record<string, string> };
  t.deepEqual(ready.checks, { database: 'up', queryTimeouts: 'up' });
});

test.serial('the management port serves nothing else; /metrics there is still for loopback and METRICS_ALLOW', async (t) => {
  if (!nodeAddress) return t.fail('this machine has no non-loopback IPv4 address to probe from');
  for (const path of ['/auth/token', '/.well-known/oauth-authorization-server', '/']) {
    t.is((await get('127.0.0.1', managementPort, path, '127.0.0.1')).status, 404, path);
  }
  t.is((await get(nodeAddress, managementPort, '/metrics', nodeAddress)).status, 403);
  const metrics = await get('127.0.0.1', managementPort, '/metrics', '127.0.0.1');
  t.is(metrics.status, 200);
  t.regex(metrics.body, /^process_cpu_user_seconds_total/m);
});

test.serial('draining: the management port\'s readiness turns 503 with the server\'s', async (t) => {
  server.server.health.markDraining();
  const ready = await get('127.0.0.1', managementPort, '/health/ready', '127.0.0.1');
  t.is(ready.status, 503);
  t.deepEqual(JSON.parse(ready.body), { status: 'draining' });
});
