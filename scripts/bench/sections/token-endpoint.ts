/**
 * bcrypt-bound endpoints against the bcrypt bound (measured before and after, averaged): the password grant
 * through the edge (8 connections, after a 3 s warm-up; goal ≥ 0.9×), with the auth server's CPU per request split
 * into bcrypt's threads and the rest, the edge's and PostgreSQL's, and what the three burn idle; then the
 * client_credentials grant and POST /register, without goals.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcrypt';
import { bcryptBound } from '../lib/bcrypt-bound.ts';
import { basic, sleep } from '../lib/http.ts';
import { runLoad, throughput } from '../lib/load.ts';
import { formatCpu, meterCpu } from '../lib/cpu.ts';
import { meterPostgresCpu } from '../lib/postgres-cpu.ts';
import { formatRate } from '../lib/report.ts';
import type { Section } from './section.ts';
import type { BenchContext } from '../lib/context.ts';

/** libuv's thread-pool threads (where bcrypt runs) are named so in /proc. */
const LIBUV_POOL_THREAD = 'libuv-worker';
const WARM_UP_SECONDS = 3;
/** /proc counts CPU in 10 ms ticks: 5 s reads idle CPU to 2 ms/s (3 s read 0 for servers at 1 ms/s). */
const IDLE_SECONDS = 5;

export const tokenEndpoint: Section = {
  name: 'token',
  async run(ctx) {
    const tokenForm = new URLSearchParams({ grant_type: 'password', ...ctx.user }).toString();
    const tokenLoad = (duration: number) => runLoad({
      url: `${ctx.baseUrl}/auth/token`,
      connections: 8,
      duration,
      method: 'POST',
      headers: { authorization: basic(ctx.client.id, ctx.client.secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenForm,
    });
    // A fresh server's first token requests compile its token path (V8 compiles functions on
    // first call): measured alone, that added about 2 ms of CPU per request to a 10 s load.
    ctx.say(`POST /auth/token: warm-up, ${WARM_UP_SECONDS} s`);
    await tokenLoad(WARM_UP_SECONDS);
    await sleep(1_000); // let in-flight hashes finish
    ctx.say(`raw bcrypt compares at cost ${ctx.cost}, before the token load`);
    const before = await bcryptBound(ctx.cost, 3_000);
    ctx.say(`POST /auth/token: 8 connections, ${ctx.duration} s`);
    const authCpu = meterCpu(ctx.pids.auth);
    const authPoolCpu = meterCpu(ctx.pids.auth, LIBUV_POOL_THREAD);
    const edgeCpu = meterCpu(ctx.pids.resource);
    const postgresCpu = await meterPostgresCpu(ctx.sql);
    const tokens = await tokenLoad(ctx.duration);

    const tokenUs = authCpu.perRequest(tokens.requests.total);
    const tokenPoolUs = authPoolCpu.perRequest(tokens.requests.total);
    const aroundUs = [edgeCpu.perRequest(tokens.requests.total), postgresCpu.perRequest(tokens.requests.total)];
    await sleep(1_000); // let in-flight hashes finish
    ctx.say(`idle CPU of the servers and PostgreSQL, ${IDLE_SECONDS} s`);
    const idle = await idleCpu(ctx, IDLE_SECONDS);
    ctx.say(`raw bcrypt compares at cost ${ctx.cost}, after the token load`);
    const after = await bcryptBound(ctx.cost, 3_000);
    const bound = (before.comparesPerSecond + after.comparesPerSecond) / 2;
    const compareUs = (before.cpuUsPerCompare + after.cpuUsPerCompare) / 2;
    const machine = { id: `bench-machine-${crypto.randomBytes(4).toString('hex')}`, secret: crypto.randomBytes(16).toString('hex') };
    await ctx.sql.query("INSERT INTO oauth_clients (id, hashed_secret, grant_types) VALUES ($1, $2, ARRAY['client_credentials'])", [machine.id, await bcrypt.hash(machine.secret, ctx.cost)]);
    ctx.say(`POST /auth/token (client_credentials): 8 connections, ${ctx.duration} s`);
    const machineCpu = meterCpu(ctx.pids.auth);
    const machineTokens = await runLoad({
      url: `${ctx.baseUrl}/auth/token`,
      connections: 8,
      duration: ctx.duration,
      method: 'POST',
      headers: { authorization: basic(machine.id, machine.secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const machineUs = machineCpu.perRequest(machineTokens.requests.total);
    ctx.say(`POST /register: 8 connections, ${ctx.duration} s`);
    let n = 0;
    const prefix = crypto.randomBytes(4).toString('hex');
    const registers = await runLoad({
      url: `${ctx.baseUrl}/register`,
      connections: 8,
      duration: ctx.duration,
      requests: [{
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ username: `bench-${prefix}-${n++}`, password: 'bench password' }) }),
      }],
    });

    const anchor = `bcrypt ${formatRate(bound, 'compares/s')} (cost ${ctx.cost})${formatCpu(compareUs, 'CPU/compare')}`;
    const tokenRatio = throughput(tokens) / bound;
    return [
      {
        figure: 'POST /auth/token (password, 8 conn.)',
        value: `${formatRate(throughput(tokens))}, p99 ${tokens.latency.p99} ms${formatCpu(tokenUs, 'auth-server CPU/req')}${tokenPoolUs === undefined ? '' : ` (${tokenPoolUs.toFixed(0)} in bcrypt's threads)`}${formatAround(aroundUs)}${formatIdle(idle, throughput(tokens))}${tokens.non2xx ? `, ${tokens.non2xx} non-2xx` : ''}`,
        anchor,
        ratio: tokenRatio,
        goal: '≥ 0.9× bcrypt bound',
        meets: tokenRatio >= 0.9 && tokens.non2xx === 0,
      },
      {
        figure: 'POST /auth/token (client_credentials, 8 conn.)',
        value: `${formatRate(throughput(machineTokens))}, p99 ${machineTokens.latency.p99} ms${formatCpu(machineUs, 'auth-server CPU/req')}${machineTokens.non2xx ? `, ${machineTokens.non2xx} non-2xx` : ''}`,
        anchor: `password grant ${formatRate(throughput(tokens))}`,
        ratio: throughput(machineTokens) / throughput(tokens),
      },
      {
        figure: 'POST /register (8 conn.)',
        value: `${formatRate(throughput(registers))}${registers.non2xx ? `, ${registers.non2xx} non-2xx` : ''}`,
        anchor,
        ratio: throughput(registers) / bound,
      },
    ];
  },
};

/** `; edge 180, PostgreSQL 900 µs CPU/req` (whichever could be read). */
function formatAround([edgeUs, postgresUs]: Array<number | undefined>): string {
  const parts = [edgeUs === undefined ? '' : `edge ${edgeUs.toFixed(0)}`, postgresUs === undefined ? '' : `PostgreSQL ${postgresUs.toFixed(0)}`].filter(Boolean);
  return parts.length ? `; ${parts.join(', ')} µs CPU/req` : '';
}

/** CPU ms per second of each process with no request: auth-server (all threads), edge, PostgreSQL backends. */
async function idleCpu(ctx: BenchContext, seconds: number): Promise<Array<number | undefined>> {
  const meters = [meterCpu(ctx.pids.auth), meterCpu(ctx.pids.resource), await meterPostgresCpu(ctx.sql)];
  await sleep(seconds * 1_000);
  // perRequest(n) is CPU µs per n: over seconds × 1000 "requests" it reads ms per second.
  return meters.map((meter) => meter.perRequest(seconds * 1_000));
}

/** `; idle auth-server 3, edge 5, PostgreSQL 0 ms CPU/s (200 µs/req at this rate)`. */
function formatIdle(idleMsPerSecond: Array<number | undefined>, requestsPerSecond: number): string {
  const [auth, edge, postgres] = idleMsPerSecond;
  if (auth === undefined || edge === undefined) return '';
  const sum = auth + edge + Math.max(0, postgres ?? 0);
  const pg = postgres === undefined ? '' : `, PostgreSQL ${postgres.toFixed(1)}`;
  return `; idle auth-server ${auth.toFixed(1)}, edge ${edge.toFixed(1)}${pg} ms CPU/s (${((sum * 1000) / requestsPerSecond).toFixed(0)} µs/req at this rate)`;
}
