/**
 * GET /heroes with a DPoP-bound token (RFC 9449: a fresh proof per request, checked at the edge, its id claimed in
 * PostgreSQL) beside a bearer token, 50 connections each, taking turns in SLICES short loads so both meet the same
 * swings of a shared machine; proofs are signed, fresh, before each DPoP load (1.5× what bearer did). Goal ≥ 0.7× the bearer throughput; the
 * difference in edge and PostgreSQL CPU per request is what the proof check costs.
 */
import { createDpopKey, dpopProof, type DpopKey } from '@heroes/test-kit';
import { basic, expectOk, post } from '../lib/http.ts';
import { runLoad, throughput, type LoadResult } from '../lib/load.ts';
import { formatCpu, meterCpu } from '../lib/cpu.ts';
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
    const extra = [dpopRun.edgeUs, dpopRun.postgresUs].map((value, i) => {
      const base = [bearerRun.edgeUs, bearerRun.postgresUs][i];
      return value === undefined || base === undefined ? undefined : value - base;
    });
    return [{
      figure: `GET /heroes with DPoP (10 heroes, ${CONNECTIONS} conn.)`,
      value: `${describe(dpopRun)}${extra[0] === undefined ? '' : `; the proof check: +${extra[0].toFixed(0)} µs edge${extra[1] === undefined ? '' : `, +${extra[1].toFixed(0)} µs PostgreSQL`} per request`}`,
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
  postgresUs: number | undefined;
}

async function measured(ctx: BenchContext, load: () => Promise<LoadResult>): Promise<Measured> {
  const edge = meterCpu(ctx.pids.resource);
  const postgres = await meterPostgresCpu(ctx.sql);
  const result = await load();
  return { result, edgeUs: edge.perRequest(result.requests.total), postgresUs: postgres.perRequest(result.requests.total) };
}

interface Combined {
  /** Requests completed per second over all the slices. */
  rate: number;
  /** The worst slice's p99 latency, ms. */
  p99: number;
  non2xx: number;
  edgeUs: number | undefined;
  postgresUs: number | undefined;
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
    postgresUs: perRequest((run) => run.postgresUs),
  };
}

function describe({ rate, p99, edgeUs, postgresUs }: Combined): string {
  return `${formatRate(rate)}, p99 ${p99} ms${formatCpu(edgeUs, 'edge CPU/req')}${formatCpu(postgresUs, 'PostgreSQL CPU/req')}`;
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
