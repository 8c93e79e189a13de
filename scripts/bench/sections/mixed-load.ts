/**
 * A mixed load for BENCH_MIXED_SECONDS (60) at 20 connections: 80 % reads (by id, search, a page), 15 % writes
 * (create, rename), 5 % password grants; both servers' RSS sampled and read 2 s after. Goal < 150 MB each. Runs
 * after the scale sections; adds heroes.
 */
import crypto from 'node:crypto';
import { basic, sleep } from '../lib/http.ts';
import { runLoad, throughput, type LoadRequest } from '../lib/load.ts';
import { ensureManyHeroes, someHeroIds } from '../lib/many-heroes.ts';
import { formatHeap, heapOf } from '../lib/heap.ts';
import { formatMb, formatRate, type Row } from '../lib/report.ts';
import { rssOf, sampleRss } from '../lib/rss.ts';
import type { Section } from './section.ts';

const LIMIT_MB = 150;
const SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 60);

export const mixedLoad: Section = {
  name: 'mixed',
  async run(ctx) {
    await ensureManyHeroes(ctx);
    const { resource, auth } = ctx.pids;
    const ids = await someHeroIds(ctx, 5000);
    const bearer = `Bearer ${ctx.token}`;
    const json = { authorization: bearer, 'content-type': 'application/json' };
    const tokenHeaders = { authorization: basic(ctx.client.id, ctx.client.secret), 'content-type': 'application/x-www-form-urlencoded' };
    const tokenForm = new URLSearchParams({ grant_type: 'password', ...ctx.user }).toString();
    const prefix = crypto.randomBytes(4).toString('hex');
    let n = 0;
    const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
    const patterns = ['wvut', 'abc', 'hero 12', 'zz', 'qrs'];
    const draw = (): LoadRequest => {
      const roll = Math.random() * 100;
      if (roll < 50) return { method: 'GET', path: `/heroes/${pick(ids)}`, headers: { authorization: bearer } };
      if (roll < 70) return { method: 'GET', path: `/heroes?name=${encodeURIComponent(pick(patterns))}`, headers: { authorization: bearer } };
      if (roll < 80) return { method: 'GET', path: `/heroes?limit=100&after=${pick(ids)}`, headers: { authorization: bearer } };
      if (roll < 88) return { method: 'POST', path: '/heroes', headers: json, body: JSON.stringify({ name: `Mixed ${prefix} ${n++}` }) };
      if (roll < 95) return { method: 'PUT', path: `/heroes/${pick(ids)}`, headers: json, body: JSON.stringify({ name: `Renamed ${prefix} ${n++}` }) };
      return { method: 'POST', path: '/auth/token', headers: tokenHeaders, body: tokenForm };
    };
    const samplers = resource !== undefined && auth !== undefined ? { resource: sampleRss(resource), auth: sampleRss(auth) } : undefined;
    const before = samplers ? { resource: rssOf(resource!), auth: rssOf(auth!) } : undefined;
    ctx.say(`mixed load: 20 connections, ${SECONDS} s (80% reads, 15% writes, 5% tokens)`);
    const result = await runLoad({
      url: ctx.baseUrl,
      connections: 20,
      duration: SECONDS,
      requests: [{ setupRequest: () => draw() }],
    });
    const load: Row = {
      figure: `mixed load ${SECONDS} s (80/15/5, 20 conn.)`,
      value: `${formatRate(throughput(result))}, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx, ${result.errors + result.timeouts} errors`,
    };
    if (!samplers || !before) return [load];
    await sleep(2_000);
    const peaks = { resource: samplers.resource.stop(), auth: samplers.auth.stop() };
    const after = { resource: rssOf(resource!), auth: rssOf(auth!) };
    const heaps = { resource: await heapOf(ctx.baseUrl), auth: await heapOf(ctx.authUrl) };
    return [load, ...(['resource', 'auth'] as const).map((server) => ({
      figure: `RSS after the mixed load, ${server} server`,
      value: `${formatMb(after[server])} (before ${formatMb(before[server])}, peak ${formatMb(peaks[server])}${formatHeap(heaps[server])})`,
      goal: `< ${LIMIT_MB} MB`,
      meets: after[server] < LIMIT_MB * 1024 * 1024,
    }))];
  },
};
