import type { BenchContext } from '../lib/context.ts';
import type { Row } from '../lib/report.ts';

/**
 * One part of the benchmark: measures, then returns its rows. Sections run
 * in the order of the list in scripts/bench.ts and may leave data behind
 * for later ones (say so in the section's header comment).
 */
export interface Section {
  /** Short name, used by BENCH_ONLY=name,name to run a subset. */
  name: string;
  run(ctx: BenchContext): Promise<Row[]>;
}
