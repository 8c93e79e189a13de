/**
 * Full listings at scale: five concurrent GET /heroes (gzip accepted, as a
 * browser would) of MANY_HEROES heroes, repeated for BENCH_DURATION s,
 * while both servers' RSS is sampled every 50 ms. Goal: peak < 150 MB per
 * server. Also checks every answer is a complete array of MANY_HEROES.
 */
import { countListedHeroes, ensureManyHeroes, MANY_HEROES } from '../lib/many-heroes.ts';
import { formatMb, type Row } from '../lib/report.ts';
import { sampleRss } from '../lib/rss.ts';
import type { Section } from './section.ts';

const LIMIT_MB = 150;

export const fullListing: Section = {
  name: 'listing',
  async run(ctx) {
    await ensureManyHeroes(ctx);
    const { resource, auth } = ctx.pids;
    if (resource === undefined || auth === undefined) return [{ figure: 'RSS during 5 full listings', value: 'n/a (service not started here)' }];
    const samplers = { resource: sampleRss(resource), auth: sampleRss(auth) };
    ctx.say(`5 concurrent full listings of ${MANY_HEROES} heroes, repeated for ${ctx.duration} s`);
    const until = Date.now() + ctx.duration * 1000;
    const counts = await Promise.all(Array.from({ length: 5 }, async () => {
      let listings = 0;
      do {
        const heroes = await countListedHeroes(ctx, { gzip: true });
        if (heroes < MANY_HEROES) throw new Error(`a full listing had ${heroes} heroes, not ${MANY_HEROES}`);
        listings++;
      } while (Date.now() < until);
      return listings;
    }));
    const peaks = { resource: samplers.resource.stop(), auth: samplers.auth.stop() };
    const listings = counts.reduce((a, b) => a + b, 0);
    const rows: Row[] = (['resource', 'auth'] as const).map((server) => ({
      figure: `peak RSS, ${server} server, 5 concurrent full listings`,
      value: `${formatMb(peaks[server])} (${listings} listings of ${MANY_HEROES.toLocaleString('en')})`,
      goal: `< ${LIMIT_MB} MB`,
      meets: peaks[server] < LIMIT_MB * 1024 * 1024,
    }));
    return rows;
  },
};
