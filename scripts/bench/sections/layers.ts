/**
 * What each layer of the resource server costs on GET /heroes: CPU per request with every layer on, each left out
 * in turn (layer-variant-server.js), all out, without the list cache, and of the raw anchor; each its own process,
 * taking turns BENCH_LAYER_ROUNDS times, median printed. Goal: every layer on ≤ 1.5× the anchor. A/B of two builds:
 * BENCH_LAYER_BASELINE=<other checkout>/scripts/bench/layer-variant-server.js, BENCH_LAYER_VARIANTS to keep rows.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { APP_LAYERS } from '@heroes/resource-server';
import { expectOk, post } from '../lib/http.ts';
import { runLoad } from '../lib/load.ts';
import { freePort, spawnNode, stopProcess, waitForPort } from '../lib/processes.ts';
import { meterCpu } from '../lib/cpu.ts';
import type { BenchContext } from '../lib/context.ts';
import type { Row } from '../lib/report.ts';
import type { Section } from './section.ts';

const ROUNDS = Number(process.env.BENCH_LAYER_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_LAYER_SECONDS ?? 5);
const GOAL = 1.5;

export interface Variant {
  label: string;
  /** Layers left out; undefined: the raw anchor. */
  skip?: readonly string[];
  /** Another build's layer-variant-server.js (comparing two builds in one run). */
  entry?: string;
  /** Extra environment of the variant's process (e.g. NODE_OPTIONS). */
  env?: Record<string, string>;
  /** The variant its "cost" is measured against (default: every layer on). */
  against?: string;
}

/** The middleware layers; the list cache is not one of them (it spares the query). */
const MIDDLEWARE_LAYERS = APP_LAYERS.filter((layer) => layer !== 'list-cache');
const BASELINE = process.env.BENCH_LAYER_BASELINE;
const ONLY = process.env.BENCH_LAYER_VARIANTS?.split(',').map((label) => label.trim()).filter(Boolean);

const VARIANTS: readonly Variant[] = [
  { label: 'raw anchor' },
  { label: 'every layer on', skip: [] },
  ...(BASELINE ? [{ label: 'baseline build', skip: [], entry: path.resolve(BASELINE) }] : []),
  { label: 'request log through pino-http', skip: [], env: { BENCH_REQUEST_LOG: 'pino-http' } },
  ...APP_LAYERS.map((layer) => ({ label: `without ${layer}`, skip: [layer] })),
  { label: 'without every layer (list cache kept)', skip: MIDDLEWARE_LAYERS },
  { label: 'without every layer nor the list cache', skip: APP_LAYERS, against: 'without list-cache' },
].filter((variant) => !ONLY || variant.skip === undefined || ONLY.includes(variant.label));

export const layers: Section = {
  name: 'layers',
  async run(ctx) {
    if (!ctx.resourceEnv) return [{ figure: 'GET /heroes by layer', value: 'n/a (needs the servers started by the bench)' }];
    await ensureHeroes(ctx);
    const auth = { authorization: `Bearer ${ctx.token}` };
    const samples = new Map<string, number[]>(VARIANTS.map((variant) => [variant.label, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      ctx.say(`layers: round ${round} of ${ROUNDS}`);
      for (const variant of VARIANTS) {
        const us = (await measure(ctx, variant, auth))?.us;
        if (us !== undefined) samples.get(variant.label)!.push(us);
      }
    }
    const median = (label: string) => medianOf(samples.get(label)!);
    const anchor = median('raw anchor');
    return VARIANTS.filter((variant) => variant.skip !== undefined).map((variant): Row => {
      const us = median(variant.label);
      const ratio = us / anchor;
      const against = variant.against ?? 'every layer on';
      const share = samples.has(against) ? median(against) - us : undefined;
      const versus = variant.against ? ` (against ${variant.against})` : '';
      const cost = variant.skip!.length === 0 || share === undefined ? '' : share >= 0 ? `, ${variant.skip!.length > 1 ? 'layers cost' : 'layer costs'} ${share.toFixed(0)} µs${versus}` : `, ${variant.skip!.length > 1 ? 'layers save' : 'layer saves'} ${(-share).toFixed(0)} µs${versus}`;
      return {
        figure: `GET /heroes CPU/req, ${variant.label}`,
        value: `${us.toFixed(0)} µs (${samples.get(variant.label)!.map((n) => n.toFixed(0)).join(', ')})${cost}`,
        anchor: `raw anchor ${anchor.toFixed(0)} µs`,
        ratio,
        ...(variant.label === 'every layer on' ? { goal: `≤ ${GOAL}× anchor CPU`, meets: ratio <= GOAL } : {}),
      };
    });
  },
};

/** CPU µs per request of one variant under 50 connections of GET /heroes, and the requests measured. */
export async function measure(ctx: BenchContext, variant: Variant, headers: Record<string, string>): Promise<{ us: number; requests: number } | undefined> {
  const port = await freePort();
  const anchor = variant.skip === undefined;
  const entry = variant.entry ?? path.join(import.meta.dirname, '..', anchor ? 'raw-anchor-server.ts' : 'layer-variant-server.js');
  const env = { ...ctx.resourceEnv, PORT: String(port), BENCH_SKIP_LAYERS: (variant.skip ?? []).join(','), ...variant.env };
  const server = spawnNode(`layers-${variant.label.replaceAll(' ', '-')}`, entry, env, path.join(import.meta.dirname, '..', '..'), ctx.logDir, ctx.say);
  try {
    await waitForPort(port);
    const url = `http://127.0.0.1:${port}/heroes`;
    await expectOk(await fetch(url, { headers }), `GET /heroes (${variant.label})`);
    await runLoad({ url, connections: 50, duration: 2, headers });
    const meter = meterCpu(server.pid);
    const result = await runLoad({ url, connections: 50, duration: SECONDS, headers });
    if (result.non2xx > 0) ctx.say(`${variant.label}: ${result.non2xx} non-2xx answers`);
    const us = meter.perRequest(result.requests.total);
    return us === undefined ? undefined : { us, requests: result.requests.total };
  } finally {
    await stopProcess(server.child);
  }
}

/** The `heroes` section's 10 heroes, when it did not run before. */
export async function ensureHeroes(ctx: BenchContext): Promise<void> {
  const { rows } = await ctx.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM heroes');
  for (let i = rows[0]!.n; i < 10; i++) {
    const name = `Bench hero ${i + 1} ${crypto.randomBytes(3).toString('hex')}`;
    await expectOk(await post(`${ctx.baseUrl}/heroes`, { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' }, JSON.stringify({ name })), 'create hero');
  }
}

export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
