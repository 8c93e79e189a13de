/**
 * Search at scale: GET /heroes?name=wvut (about a hundred matches) among MANY_HEROES heroes against GET /heroes/:id
 * (random ids), 50 connections, BENCH_SEARCH_ROUNDS rounds (3) taking turns. Goal: search ≥ 0.5× the lookup in every
 * round (the row prints the median and each round), with each load's CPU per request in the edge and in PostgreSQL.
 * Leaves the heroes table at MANY_HEROES rows.
 */
import { meterCpu } from '../lib/cpu.ts';
import { runLoad, throughput, type LoadResult } from '../lib/load.ts';
import { ensureManyHeroes, MANY_HEROES, someHeroIds } from '../lib/many-heroes.ts';
import { meterPostgresCpu } from '../lib/postgres-cpu.ts';
import { formatRate } from '../lib/report.ts';
import type { Section } from './section.ts';

const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 3);

export const search: Section = {
  name: 'search',
  async run(ctx) {
    await ensureManyHeroes(ctx);
    const headers = { authorization: `Bearer ${ctx.token}` };
    const ids = await someHeroIds(ctx, 1000);
    let next = 0;
    const byIdRequests = [{ method: 'GET', setupRequest: (req: object) => ({ ...req, path: `/heroes/${ids[next++ % ids.length]}` }) }];
    ctx.say('warming up GET /heroes/:id and the search');
    await runLoad({ url: ctx.baseUrl, connections: 50, duration: 2, headers, requests: byIdRequests });
    await runLoad({ url: `${ctx.baseUrl}/heroes?name=wvut`, connections: 50, duration: 2, headers });
    ctx.say(`GET /heroes/:id then GET /heroes?name=wvut: 50 connections, ${ctx.duration} s each, ${ROUNDS} rounds`);
    /** The load, with the edge's and PostgreSQL's CPU per request over it. */
    const metered = async (load: () => Promise<LoadResult>) => {
      const edge = meterCpu(ctx.pids.resource);
      const postgres = await meterPostgresCpu(ctx.sql);
      const result = await load();
      const us = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(0)} µs`);
      const cpu = `edge ${us(edge.perRequest(result.requests.total))}, PostgreSQL ${us(postgres.perRequest(result.requests.total))}`;
      return { result, cpu };
    };
    const rounds: Array<{ byId: Awaited<ReturnType<typeof metered>>; found: Awaited<ReturnType<typeof metered>>; ratio: number }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const byId = await metered(() => runLoad({ url: ctx.baseUrl, connections: 50, duration: ctx.duration, headers, requests: byIdRequests }));
      const found = await metered(() => runLoad({ url: `${ctx.baseUrl}/heroes?name=wvut`, connections: 50, duration: ctx.duration, headers }));
      const ratio = throughput(found.result) / throughput(byId.result);
      ctx.say(`search round ${round}: ${formatRate(throughput(found.result))} (${found.cpu}) against by-id ${formatRate(throughput(byId.result))} (${byId.cpu}): ${ratio.toFixed(2)}×`);
      rounds.push({ byId, found, ratio });
    }
    const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)]!;
    const errors = rounds.reduce((all, { found }) => all + found.result.non2xx, 0);
    return [{
      figure: `GET /heroes?name=wvut (${MANY_HEROES.toLocaleString('en')} heroes), median of ${rounds.length} rounds`,
      value: `${formatRate(throughput(median.found.result))}, p99 ${median.found.result.latency.p99} ms${errors ? `, ${errors} non-2xx` : ''}; CPU/req ${median.found.cpu}; rounds ${rounds.map(({ ratio }) => `${ratio.toFixed(2)}×`).join(', ')}`,
      anchor: `GET /heroes/:id ${formatRate(throughput(median.byId.result))}; CPU/req ${median.byId.cpu}`,
      ratio: median.ratio,
      goal: '≥ 0.5× GET /heroes/:id',
      meets: rounds.every(({ ratio }) => ratio >= 0.5) && errors === 0,
    }];
  },
};
