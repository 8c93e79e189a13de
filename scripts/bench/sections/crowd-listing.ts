/**
 * A crowd of full listings (docs/performance.md, "List cache"): 300 concurrent GET /heroes of 100,000 heroes, half
 * accepting gzip, each read to its end, while GET /heroes/:id is timed and the edge's RSS sampled every 50 ms.
 * Goals: edge peak RSS < 200 MB, the other requests' p99 < 100 ms, every listing complete. Leaves its heroes.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { countListedHeroes, ensureManyHeroes, someHeroIds } from '../lib/many-heroes.ts';
import { formatMb, type Row } from '../lib/report.ts';
import { sampleRss } from '../lib/rss.ts';
import type { Section } from './section.ts';

const CROWD = 300;
const ROUNDS = 1;
const CROWD_HEROES = 100_000;
const LIMIT_MB = 200;
const P99_LIMIT_MS = 100;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export const crowdListing: Section = {
  name: 'crowd-listing',
  async run(ctx) {
    await ensureManyHeroes(ctx, CROWD_HEROES);
    const { resource } = ctx.pids;
    if (resource === undefined) return [{ figure: `RSS during ${CROWD} full listings`, value: 'n/a (service not started here)' }];
    const { rows } = await ctx.sql.query<{ n: string }>('SELECT count(*) AS n FROM heroes');
    const total = Number(rows[0]!.n);
    const ids = await someHeroIds(ctx, 1000);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CROWD });
    const sampler = sampleRss(resource);
    let crowding = true;
    const others: number[] = [];
    const probe = (async () => {
      for (let i = 0; crowding; i++) {
        const started = performance.now();
        const res = await fetch(`${ctx.baseUrl}/heroes/${ids[i % ids.length]}`, { headers: { authorization: `Bearer ${ctx.token}` } });
        await res.arrayBuffer();
        others.push(performance.now() - started);
      }
    })();
    ctx.say(`${CROWD} concurrent full listings of ${total} heroes, ${ROUNDS} rounds, other requests timed meanwhile`);
    let incomplete = 0;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const counts = await Promise.all(Array.from({ length: CROWD }, (_, i) => countListedHeroes(ctx, { agent, gzip: i % 2 === 0 })));
        incomplete += counts.filter((heroes) => heroes < total).length;
      }
    } finally {
      crowding = false;
      await probe;
      agent.destroy();
    }
    const peak = sampler.stop();
    const p99 = percentile(others, 99);
    const rowsOut: Row[] = [
      {
        figure: `peak RSS, resource server, ${CROWD} concurrent full listings of ${total.toLocaleString('en')} heroes`,
        value: `${formatMb(peak)} (${CROWD * ROUNDS} listings${incomplete ? `, ${incomplete} incomplete` : ''})`,
        goal: `< ${LIMIT_MB} MB, all complete`,
        meets: peak < LIMIT_MB * 1024 * 1024 && incomplete === 0,
      },
      {
        figure: 'GET /heroes/:id meanwhile',
        value: `p50 ${percentile(others, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (${others.length} requests)`,
        goal: `p99 < ${P99_LIMIT_MS} ms`,
        meets: p99 < P99_LIMIT_MS,
      },
    ];
    return rowsOut;
  },
};
