/**
 * `--heap-growing-percent=30 --no-allocation-site-pretenuring` (docs/performance.md, Memory): a streaming server
 * otherwise holds two to four times its live data, and pretenured request objects fill a capped old generation.
 * V8 refuses them in NODE_OPTIONS and reads them at each full collection, and one runs while modules load: so a
 * server's main.ts calls limitHeapGrowth() before it imports anything else (this entry imports node:v8 only).
 */
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

export function limitHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT} --no-allocation-site-pretenuring`);
}
