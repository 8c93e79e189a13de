/**
 * A crowd of full listings (docs/performance.md, "List cache"): 300 concurrent GET /heroes of 100,000 heroes, half
 * accepting gzip, each read to its end by another process (listing-crowd.ts: the crowd's reading must not stall the
 * loop that times), while GET /heroes/:id is timed from here and the edge's RSS sampled every 50 ms.
 * Goals: edge peak RSS < 200 MB, the other requests' p99 < 100 ms, every listing complete. Beside them: the edge's
 * event-loop delay and each process's CPU during the crowd. Leaves its heroes.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { cpuMsOf } from '../lib/cpu.ts';
import { loopDelay } from '../lib/loop-delay.ts';
import { ensureManyHeroes, someHeroIds } from '../lib/many-heroes.ts';
import { formatMb, type Row } from '../lib/report.ts';
import { sampleRss } from '../lib/rss.ts';
import { percentile } from '../lib/percentile.ts';
import type { Section } from './section.ts';

const CROWD = 300;
const CROWD_HEROES = 100_000;
const LIMIT_MB = 200;
const P99_LIMIT_MS = 100;
const CROWD_ENTRY = path.join(import.meta.dirname, '..', 'listing-crowd.ts');

/** The crowd's process: `started` once its requests are sent, `done` with each listing's hero count. */
function startCrowd(baseUrl: string, token: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CROWD_ENTRY, baseUrl, token, String(CROWD)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error('the listing crowd exited early');
    return line.value;
  };
  return {
    pid: child.pid!,
    /** Ends the crowd if it still runs (the section failed). */
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
    started: next(),
    async done(): Promise<number[]> {
      await this.started;
      const result = JSON.parse(await next()) as { counts: number[] } | { error: string };
      if ('error' in result) throw new Error(`the listing crowd failed: ${result.error}`);
      return result.counts;
    },
  };
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
    ctx.say(`${CROWD} concurrent full listings of ${total} heroes from another process, other requests timed meanwhile`);
    const crowd = startCrowd(ctx.baseUrl, ctx.token);
    await crowd.started.catch((err: unknown) => {
      crowd.stop();
      throw err;
    });
    await loopDelay(ctx.baseUrl); // starts the edge's delay window
    const sampler = sampleRss(resource);
    const cpuBefore = { edge: cpuMsOf(resource), crowd: cpuMsOf(crowd.pid) };
    const started = performance.now();
    let crowding = true;
    const others: number[] = [];
    const probe = (async () => {
      for (let i = 0; crowding; i++) {
        const begun = performance.now();
        const res = await fetch(`${ctx.baseUrl}/heroes/${ids[i % ids.length]}`, { headers: { authorization: `Bearer ${ctx.token}` } });
        await res.arrayBuffer();
        others.push(performance.now() - begun);
      }
    })();
    let counts: number[];
    let cpu: { edge: number; crowd: number };
    try {
      counts = await crowd.done();
    } finally {
      cpu = { edge: cpuMsOf(resource) - cpuBefore.edge, crowd: cpuMsOf(crowd.pid) - cpuBefore.crowd };
      crowding = false;
      await probe;
      crowd.stop();
    }
    const elapsed = performance.now() - started;
    const edgeLoop = await loopDelay(ctx.baseUrl);
    const peak = sampler.stop();
    const incomplete = counts.filter((heroes) => heroes < total).length;
    const p99 = percentile(others, 99);
    const share = (ms: number) => `${((ms / elapsed) * 100).toFixed(0)} %`;
    const rowsOut: Row[] = [
      {
        figure: `peak RSS, resource server, ${CROWD} concurrent full listings of ${total.toLocaleString('en')} heroes`,
        value: `${formatMb(peak)} (${CROWD} listings${incomplete ? `, ${incomplete} incomplete` : ''})`,
        goal: `< ${LIMIT_MB} MB, all complete`,
        meets: peak < LIMIT_MB * 1024 * 1024 && incomplete === 0,
      },
      {
        figure: 'GET /heroes/:id meanwhile',
        value: `p50 ${percentile(others, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${percentile(others, 100).toFixed(0)} ms (${others.length} requests)`,
        goal: `p99 < ${P99_LIMIT_MS} ms`,
        meets: p99 < P99_LIMIT_MS,
      },
      {
        figure: 'the crowd, its processes',
        value: `${(elapsed / 1000).toFixed(1)} s; edge event-loop delay p99 ${edgeLoop.p99.toFixed(0)} ms, max ${edgeLoop.max.toFixed(0)} ms; ` +
          `CPU edge ${share(cpu.edge)} (${(cpu.edge / CROWD).toFixed(1)} ms/listing), crowd ${share(cpu.crowd)}`,
      },
    ];
    return rowsOut;
  },
};
