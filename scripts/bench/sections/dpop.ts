/**
 * GET /heroes with a DPoP-bound token (RFC 9449: a fresh proof per request, checked at the edge, its id claimed in
 * PostgreSQL) beside a bearer token, 50 connections each; proofs are signed before the load. Goal ≥ 0.7× the bearer
 * throughput; the difference in edge and PostgreSQL CPU per request is what the proof check costs.
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

export const dpop: Section = {
  name: 'dpop',
  async run(ctx) {
    const key = await createDpopKey();
    const token = await dpopToken(ctx, key);
    const url = `${ctx.baseUrl}/heroes`;
    const bearer = { authorization: `Bearer ${ctx.token}` };

    ctx.say('warming up GET /heroes (bearer, then DPoP)');
    await runLoad({ url, connections: CONNECTIONS, duration: 3, headers: bearer });
    const warmProofs = await signProofs(key, url, token, 5_000);
    await runLoad({ url, connections: CONNECTIONS, duration: 3, requests: [proofRequests(token, warmProofs)] });

    ctx.say(`GET /heroes: ${CONNECTIONS} connections, ${ctx.duration} s, bearer then DPoP`);
    const bearerRun = await measured(ctx, () => runLoad({ url, connections: CONNECTIONS, duration: ctx.duration, headers: bearer }));
    const count = Math.ceil(bearerRun.result.requests.total * 1.2) + 1_000;
    ctx.say(`signing ${count} DPoP proofs`);
    const proofs = await signProofs(key, url, token, count);
    const dpopRun = await measured(ctx, () => runLoad({ url, connections: CONNECTIONS, duration: ctx.duration, requests: [proofRequests(token, proofs)] }));
    if (bearerRun.result.non2xx > 0 || dpopRun.result.non2xx > 0) ctx.say(`non-2xx answers: bearer ${bearerRun.result.non2xx}, DPoP ${dpopRun.result.non2xx}`);

    const ratio = throughput(dpopRun.result) / throughput(bearerRun.result);
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
      meets: ratio >= GOAL && dpopRun.result.non2xx === 0,
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

function describe({ result, edgeUs, postgresUs }: Measured): string {
  return `${formatRate(throughput(result))}, p99 ${result.latency.p99} ms${formatCpu(edgeUs, 'edge CPU/req')}${formatCpu(postgresUs, 'PostgreSQL CPU/req')}`;
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
