/**
 * GET /heroes with a DPoP-bound token (RFC 9449: a fresh proof per request, checked at the edge, its id claimed in
 * PostgreSQL) beside a bearer token, 50 connections each, taking turns in SLICES short loads so both meet the same
 * swings of a shared machine; proofs are signed, fresh, before each DPoP load (1.5× what bearer did). Goal ≥ 0.7×
 * the bearer throughput; the difference in edge and PostgreSQL CPU per request is what the proof check costs. Beside
 * them: the edge's event loop alone and the load generator (autocannon, in this process), which share the cores.
 */
import { createDpopKey, dpopProof, type DpopKey } from '@heroes/test-kit';
import { basic, expectOk, post } from '../lib/http.ts';
import { runLoad, throughput, type LoadResult } from '../lib/load.ts';
import { cpuMsOf, formatCpu, meterCpu } from '../lib/cpu.ts';
import { meterPostgresCpu } from '../lib/postgres-cpu.ts';
import { formatRate } from '../lib/report.ts';
import type { BenchContext } from '../lib/context.ts';
import type { Section } from './section.ts';

const GOAL = 0.7;
const CONNECTIONS = 50;
const SLICES = 5;

export const dpop: Section = {
  name: 'dpop',
  async run(ctx) {
    const key = await createDpopKey();
    const token = await dpopToken(ctx, key);
    const url = `${ctx.baseUrl}/heroes`;
    const bearer = { authorization: `Bearer ${ctx.token}` };

    ctx.say('warming up GET /heroes (bearer, then DPoP)');
    const warm = await runLoad({ url, connections: CONNECTIONS, duration: 3, headers: bearer });
    await runLoad({ url, connections: CONNECTIONS, duration: 3, requests: [proofRequests(token, await signProofs(key, url, token, 5_000))] });

    const slice = Math.max(1, ctx.duration / SLICES);
    ctx.say(`GET /heroes: ${CONNECTIONS} connections, bearer and DPoP taking turns, ${SLICES} × ${slice} s each`);
    const bearerRuns: Measured[] = [];
    const dpopRuns: Measured[] = [];
    let rate = throughput(warm);
    for (let i = 0; i < SLICES; i++) {
      bearerRuns.push(await measured(ctx, () => runLoad({ url, connections: CONNECTIONS, duration: slice, headers: bearer })));
      rate = Math.max(rate, throughput(bearerRuns[i]!.result));
      const proofs = await signProofs(key, url, token, Math.ceil(rate * slice * 1.5) + 500);
      dpopRuns.push(await measured(ctx, () => runLoad({ url, connections: CONNECTIONS, duration: slice, requests: [proofRequests(token, proofs)] })));
    }
    const bearerRun = combine(bearerRuns);
    const dpopRun = combine(dpopRuns);
    if (bearerRun.non2xx > 0 || dpopRun.non2xx > 0) ctx.say(`non-2xx answers: bearer ${bearerRun.non2xx}, DPoP ${dpopRun.non2xx}`);

    const ratio = dpopRun.rate / bearerRun.rate;
    const parts: Array<[string, keyof Combined]> = [['edge', 'edgeUs'], ['on its event loop', 'loopUs'], ['PostgreSQL', 'postgresUs'], ['load generator', 'generatorUs']];
    const extra = parts.flatMap(([label, field]) => {
      const [value, base] = [dpopRun[field], bearerRun[field]];
      return value === undefined || base === undefined ? [] : [`${value - base >= 0 ? '+' : ''}${(value - base).toFixed(0)} µs ${label}`];
    });
    return [{
      figure: `GET /heroes with DPoP (10 heroes, ${CONNECTIONS} conn.)`,
      value: `${describe(dpopRun)}${extra.length === 0 ? '' : `; the proof check: ${extra.join(', ')} per request`}`,
      anchor: `bearer ${describe(bearerRun)}`,
      ratio,
      goal: `≥ ${GOAL}× bearer`,
      meets: ratio >= GOAL && dpopRun.non2xx === 0,
    }];
  },
};

interface Measured {
  result: LoadResult;
  edgeUs: number | undefined;
  /** The edge's main thread (its event loop), without libuv's and V8's threads. */
  loopUs: number | undefined;
  postgresUs: number | undefined;
  /** autocannon's CPU: it runs in this process. */
  generatorUs: number | undefined;
}

async function measured(ctx: BenchContext, load: () => Promise<LoadResult>): Promise<Measured> {
  const pid = ctx.pids.resource;
  const edge = meterCpu(pid);
  const loopStart = loopMs(pid);
  const postgres = await meterPostgresCpu(ctx.sql);
  const generator = process.cpuUsage();
  const result = await load();
  const { user, system } = process.cpuUsage(generator);
  const requests = result.requests.total;
  const loopEnd = loopMs(pid);
  return {
    result,
    edgeUs: edge.perRequest(requests),
    loopUs: loopStart === undefined || loopEnd === undefined || requests === 0 ? undefined : ((loopEnd - loopStart) * 1000) / requests,
    postgresUs: postgres.perRequest(requests),
    generatorUs: requests > 0 ? (user + system) / requests : undefined,
  };
}

/** CPU ms of the main thread of `pid` (/proc/<pid>/task/<pid>), where there is one to read. */
function loopMs(pid: number | undefined): number | undefined {
  try {
    return pid === undefined ? undefined : cpuMsOf(`${pid}/task/${pid}`);
  } catch {
    return undefined;
  }
}

interface Combined {
  /** Requests completed per second over all the slices. */
  rate: number;
  /** The worst slice's p99 latency, ms. */
  p99: number;
  non2xx: number;
  edgeUs: number | undefined;
  loopUs: number | undefined;
  postgresUs: number | undefined;
  generatorUs: number | undefined;
}

function combine(runs: Measured[]): Combined {
  const requests = runs.reduce((sum, run) => sum + run.result.requests.total, 0);
  const seconds = runs.reduce((sum, run) => sum + run.result.duration, 0);
  const perRequest = (of: (run: Measured) => number | undefined): number | undefined => {
    if (requests === 0 || runs.some((run) => of(run) === undefined)) return undefined;
    return runs.reduce((sum, run) => sum + of(run)! * run.result.requests.total, 0) / requests;
  };
  return {
    rate: requests / seconds,
    p99: Math.max(...runs.map((run) => run.result.latency.p99)),
    non2xx: runs.reduce((sum, run) => sum + run.result.non2xx, 0),
    edgeUs: perRequest((run) => run.edgeUs),
    loopUs: perRequest((run) => run.loopUs),
    postgresUs: perRequest((run) => run.postgresUs),
    generatorUs: perRequest((run) => run.generatorUs),
  };
}

function describe({ rate, p99, edgeUs, loopUs, postgresUs, generatorUs }: Combined): string {
  return `${formatRate(rate)}, p99 ${p99} ms${formatCpu(edgeUs, 'edge CPU/req')}${formatCpu(loopUs, 'of it on its event loop')}`
    + `${formatCpu(postgresUs, 'PostgreSQL CPU/req')}${formatCpu(generatorUs, 'load generator CPU/req')}`;
}

/** A DPoP-bound token for the bench user (password grant with a proof). */
async function dpopToken(ctx: BenchContext, key: DpopKey): Promise<string> {
  const tokenUrl = `${ctx.baseUrl}/auth/token`;
  const form = new URLSearchParams({ grant_type: 'password', username: ctx.user.username, password: ctx.user.password }).toString();
  const res = await post(tokenUrl, { authorization: basic(ctx.client.id, ctx.client.secret), 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, { htm: 'POST', htu: tokenUrl }) }, form);
  const body = (await expectOk(res, 'DPoP token')) as { access_token: string; token_type: string };
  if (body.token_type !== 'DPoP') throw new Error(`expected a DPoP token, got ${body.token_type}`);
  return body.access_token;
}

async function signProofs(key: DpopKey, url: string, token: string, count: number): Promise<string[]> {
  const proofs: string[] = [];
  for (let i = 0; i < count; i++) proofs.push(await dpopProof(key, { htm: 'GET', htu: url, accessToken: token }));
  return proofs;
}

/** Each request takes the next proof (the last one again once they run out: a replay, counted as non-2xx). */
function proofRequests(token: string, proofs: string[]) {
  let next = 0;
  return {
    method: 'GET',
    setupRequest: (req: { headers?: Record<string, string> }) => ({
      ...req,
      headers: { ...req.headers, authorization: `DPoP ${token}`, dpop: proofs[Math.min(next++, proofs.length - 1)]! },
    }),
  };
}
