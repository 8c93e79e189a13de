/**
 * Large anonymous forms (docs/http.md, body limits): 9.5 MB `username=a+a+…` and 10 MB of `+` at POST /auth/token
 * (at the authorization server and through the edge) and POST /register, Content-Length and chunked, while both
 * servers' /health/live is probed (probeLatencyWhile) and RSS sampled. Goal per shape: slowest probe < 50 ms beyond
 * the idle second just before, RSS growth < 50 MB.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { postFormBody, probeLatencyWhile } from '@heroes/test-kit';
import { sampleRss, rssOf } from '../lib/rss.ts';
import type { Row } from '../lib/report.ts';
import type { Section } from './section.ts';

const STALL_GOAL_MS = 50;
const RSS_GOAL_BYTES = 50 * 1024 * 1024;

const SHAPES: Array<[string, () => Buffer]> = [
  ['username=a+a+… 9.5 MB', () => Buffer.from(`grant_type=password&username=${'a+'.repeat(4_750_000)}`)],
  ['10 MB of +', () => Buffer.alloc(10_000_000, '+')],
];

/** The slowest /health/live of each server while `work` runs (both probed beside it). */
async function probeBoth<T>(authUrl: string, edgeUrl: string, work: () => Promise<T>): Promise<{ result: T; auth: number; edge: number }> {
  let edge = 0;
  const outer = await probeLatencyWhile(`${authUrl}/health/live`, async () => {
    const inner = await probeLatencyWhile(`${edgeUrl}/health/live`, work);
    edge = inner.slowestMs;
    return inner.result;
  });
  return { result: outer.result, auth: outer.slowestMs, edge };
}

export const bigForms: Section = {
  name: 'big-forms',
  async run(ctx) {
    const targets: Array<[string, string]> = [
      ['/auth/token at the auth server', `${ctx.authUrl}/auth/token`],
      ['/auth/token through the edge', `${ctx.baseUrl}/auth/token`],
      ['/register through the edge', `${ctx.baseUrl}/register`],
    ];
    const rows: Row[] = [];
    for (const [shape, make] of SHAPES) {
      const body = make();
      for (const [where, url] of targets) {
        for (const chunked of [false, true]) {
          ctx.say(`${shape} at ${where}${chunked ? ', chunked' : ''}`);
          const idle = await probeBoth(ctx.authUrl, ctx.baseUrl, () => sleep(1_000));
          const pids = [ctx.pids.auth, ctx.pids.resource].filter((pid): pid is number => pid !== undefined);
          const before = pids.map((pid) => rssOf(pid));
          const samplers = pids.map((pid) => sampleRss(pid, 20));
          const loaded = await probeBoth(ctx.authUrl, ctx.baseUrl, () => postFormBody(url, body, { chunked }));
          const growth = samplers.map((sampler, i) => sampler.stop() - before[i]!);
          const maxGrowth = Math.max(0, ...growth);
          const stall = Math.max(loaded.auth - idle.auth, loaded.edge - idle.edge);
          rows.push({
            figure: `${shape} at ${where}${chunked ? ' (chunked)' : ' (Content-Length)'}`,
            value: `${loaded.result}; /health/live slowest ${loaded.auth.toFixed(0)} ms auth, ${loaded.edge.toFixed(0)} ms edge; RSS +${(maxGrowth / 1048576).toFixed(0)} MB`,
            anchor: `idle: ${idle.auth.toFixed(0)} ms, ${idle.edge.toFixed(0)} ms`,
            goal: `< ${STALL_GOAL_MS} ms beyond idle, < ${RSS_GOAL_BYTES / 1048576} MB`,
            meets: stall < STALL_GOAL_MS && maxGrowth < RSS_GOAL_BYTES,
          });
        }
      }
    }
    return rows;
  },
};
