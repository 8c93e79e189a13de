/**
 * Search at scale: GET /heroes?name=wvut (about a hundred matches) with
 * MANY_HEROES heroes, against GET /heroes/:id (random existing ids) in the
 * same run, 50 connections each. Goal: search ≥ 0.5× the by-id lookup.
 * Prints each load's CPU per request in the edge and in PostgreSQL (where a
 * search's cost goes). Leaves the heroes table at MANY_HEROES rows.
 */
import { meterCpu } from '../lib/cpu.ts';
import { runLoad, throughput, type LoadResult } from '../lib/load.ts';
import { ensureManyHeroes, MANY_HEROES, someHeroIds } from '../lib/many-heroes.ts';
import { meterPostgresCpu } from '../lib/postgres-cpu.ts';
import { formatRate } from '../lib/report.ts';
import type { Section } from './section.ts';

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
    ctx.say(`GET /heroes/:id then GET /heroes?name=wvut: 50 connections, ${ctx.duration} s each`);
    /** The load, with the edge's and PostgreSQL's CPU per request over it. */
    const metered = async (load: () => Promise<LoadResult>) => {
      const edge = meterCpu(ctx.pids.resource);
      const postgres = await meterPostgresCpu(ctx.sql);
      const result = await load();
      const us = (value: number | undefined) => (value === undefined ? 'n/a' : `${value.toFixed(0)} µs`);
      const cpu = `CPU/req edge ${us(edge.perRequest(result.requests.total))}, PostgreSQL ${us(postgres.perRequest(result.requests.total))}`;
      return { result, cpu };
    };
    const byId = await metered(() => runLoad({ url: ctx.baseUrl, connections: 50, duration: ctx.duration, headers, requests: byIdRequests }));
    const found = await metered(() => runLoad({ url: `${ctx.baseUrl}/heroes?name=wvut`, connections: 50, duration: ctx.duration, headers }));
    const ratio = throughput(found.result) / throughput(byId.result);
    return [{
      figure: `GET /heroes?name=wvut (${MANY_HEROES.toLocaleString('en')} heroes)`,
      value: `${formatRate(throughput(found.result))}, p99 ${found.result.latency.p99} ms${found.result.non2xx ? `, ${found.result.non2xx} non-2xx` : ''}; ${found.cpu}`,
      anchor: `GET /heroes/:id ${formatRate(throughput(byId.result))}; ${byId.cpu}`,
      ratio,
      goal: '≥ 0.5× GET /heroes/:id',
      meets: ratio >= 0.5 && found.result.non2xx === 0,
    }];
  },
};
