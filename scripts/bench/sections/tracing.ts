/**
 * What tracing costs on GET /heroes (docs/operations.md, "Tracing"): CPU per request of the compiled edge (every
 * layer on) started as `layers` starts it, with tracing off as the image starts it (goal ≤ 1.1× the first), and with
 * every trace sampled and exported as OTLP/protobuf to a counting receiver (goal ≤ 1.5× off); taking turns
 * BENCH_LAYER_ROUNDS times, median printed, exported bytes per request beside. BENCH_LAYER_BASELINE adds another
 * build's tracing on to the same rounds (a change's A/B).
 */
import path from 'node:path';
import { startOtlpReceiver } from '@heroes/test-kit';
import { ensureHeroes, measure, medianOf, type Variant } from './layers.ts';
import type { Row } from '../lib/report.ts';
import type { Section } from './section.ts';

const ROUNDS = Number(process.env.BENCH_LAYER_ROUNDS ?? 3);
const OFF_GOAL = 1.1;
const ON_GOAL = 1.5;
const REGISTER = path.join(import.meta.dirname, '..', '..', '..', 'packages/resource-server/dist/register-tracing.js');
/** Another build's layer-variant-server.js (docs/performance.md, "A change's A/B"): its tracing on, in the same rounds. */
const BASELINE = process.env.BENCH_LAYER_BASELINE;

export const tracing: Section = {
  name: 'tracing',
  async run(ctx) {
    if (!ctx.resourceEnv) return [{ figure: 'GET /heroes with tracing', value: 'n/a (needs the servers started by the bench)' }];
    await ensureHeroes(ctx);
    const receiver = await startOtlpReceiver({ keep: false });
    try {
      const register = { NODE_OPTIONS: `--import=${REGISTER}` };
      const on = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: 'always_on' };
      const variants: Variant[] = [
        { label: 'no register', skip: [] },
        { label: 'tracing off', skip: [], env: register },
        { label: 'tracing on', skip: [], env: { ...register, ...on } },
      ];
      if (BASELINE !== undefined) {
        const baselineRegister = path.join(path.dirname(BASELINE), '..', '..', 'packages/resource-server/dist/register-tracing.js');
        variants.push({ label: 'tracing on, baseline build', skip: [], entry: BASELINE, env: { NODE_OPTIONS: `--import=${baselineRegister}`, ...on } });
      }
      const auth = { authorization: `Bearer ${ctx.token}` };
      const samples = new Map<string, number[]>(variants.map((variant) => [variant.label, []]));
      let exported = { bytes: 0, requests: 0 };
      for (let round = 1; round <= ROUNDS; round++) {
        ctx.say(`tracing: round ${round} of ${ROUNDS}`);
        for (const variant of variants) {
          const before = receiver.received.bytes;
          const measured = await measure(ctx, variant, auth);
          if (measured === undefined) continue;
          samples.get(variant.label)!.push(measured.us);
          if (variant.label === 'tracing on') exported = { bytes: exported.bytes + receiver.received.bytes - before, requests: exported.requests + measured.requests };
        }
      }
      const median = (label: string) => medianOf(samples.get(label)!);
      const shown = (label: string) => `${median(label).toFixed(0)} µs (${samples.get(label)!.map((n) => n.toFixed(0)).join(', ')})`;
      const offRatio = median('tracing off') / median('no register');
      const onRatio = median('tracing on') / median('tracing off');
      const perRequest = exported.requests > 0 ? `, ${(exported.bytes / exported.requests).toFixed(0)} B exported/req` : '';
      const rows: Row[] = [
        {
          figure: 'GET /heroes CPU/req, tracing off (register loaded, no endpoint)',
          value: shown('tracing off'),
          anchor: `without the register ${median('no register').toFixed(0)} µs`,
          ratio: offRatio,
          goal: `≤ ${OFF_GOAL}× (noise)`,
          meets: offRatio <= OFF_GOAL,
        },
        {
          figure: 'GET /heroes CPU/req, tracing on (100 % sampled, OTLP/protobuf)',
          value: `${shown('tracing on')}${perRequest}`,
          anchor: `tracing off ${median('tracing off').toFixed(0)} µs`,
          ratio: onRatio,
          goal: `≤ ${ON_GOAL}× tracing off`,
          meets: onRatio <= ON_GOAL,
        },
      ];
      if (BASELINE !== undefined) {
        const baselineRatio = median('tracing on, baseline build') / median('tracing off');
        rows.push({
          figure: 'GET /heroes CPU/req, tracing on, baseline build (BENCH_LAYER_BASELINE)',
          value: shown('tracing on, baseline build'),
          anchor: `tracing off ${median('tracing off').toFixed(0)} µs`,
          ratio: baselineRatio,
          goal: `≤ ${ON_GOAL}× tracing off`,
          meets: baselineRatio <= ON_GOAL,
        });
      }
      return rows;
    } finally {
      await receiver.close();
    }
  },
};
