/**
 * What one part of the benchmark is: a name for BENCH_ONLY and a run that measures, then returns its rows.
 * Sections run in the order of scripts/bench.ts and may leave data behind for later ones (said in their headers).
 */
import type { BenchContext } from '../lib/context.ts';
import type { Row } from '../lib/report.ts';

export interface Section {
  /** Short name, used by BENCH_ONLY=name,name to run a subset. */
  name: string;
  run(ctx: BenchContext): Promise<Row[]>;
}
