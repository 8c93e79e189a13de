/**
 * Search at scale: GET /heroes?name=wvut (about a hundred matches) with
 * MANY_HEROES heroes, against GET /heroes/:id (random existing ids) in the
 * same run, 50 connections each. Goal: search ≥ 0.5× the by-id lookup.
 * Leaves the heroes table at MANY_HEROES rows.
 */
import { runLoad, throughput } from '../lib/load.ts';
import { ensureManyHeroes, MANY_HEROES, someHeroIds } from '../lib/many-heroes.ts';
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
    const byId = await runLoad({ url: ctx.baseUrl, connections: 50, duration: ctx.duration, headers, requests: byIdRequests });
    const found = await runLoad({ url: `${ctx.baseUrl}/heroes?name=wvut`, connections: 50, duration: ctx.duration, headers });
    const ratio = throughput(found) / throughput(byId);
    return [{
      figure: `GET /heroes?name=wvut (${MANY_HEROES.toLocaleString('en')} heroes)`,
      value: `${formatRate(throughput(found))}, p99 ${found.latency.p99} ms${found.non2xx ? `, ${found.non2xx} non-2xx` : ''}`,
      anchor: `GET /heroes/:id ${formatRate(throughput(byId))}`,
      ratio,
      goal: '≥ 0.5× GET /heroes/:id',
      meets: ratio >= 0.5 && found.non2xx === 0,
    }];
  },
};
