/**
 * How far V8 lets the old generation grow before its next full collection.
 * By default the limit after a collection is the live size times a factor
 * of up to 4 that V8 raises while allocation is fast, so a server streaming
 * large answers (every batch of rows is garbage a moment later, but lives
 * long enough to leave the young generation) holds two to four times its
 * live data: 100 MB and more of dead objects, in RSS, after five concurrent
 * full listings. `--heap-growing-percent=30` caps the factor at 1.3: full
 * collections come sooner (each is short: the live data is small), and RSS
 * stays near the live size.
 *
 * `--no-allocation-site-pretenuring`: V8 otherwise starts allocating the
 * objects of a site straight in the old generation once enough of them
 * survived a young collection, which short requests under load can trip
 * (whether it does depends on timing); a GET /heroes server so pretenured
 * filled its capped old generation ten times a second, with a full
 * collection each time: twice the CPU per request, in some processes and
 * not others (docs/performance.md, Memory, "The growing factor").
 *
 * The flag is not allowed in NODE_OPTIONS; V8 reads it at every full
 * collection, so setting it in each server's entry point applies it however
 * the process was started (npm start, the image, Kubernetes, the benchmark).
 * It must be set before the first full collection, and one runs while a
 * server's modules load: the limit set there, uncapped, is about four times
 * the live heap, and the pages the old generation grows into until the next
 * collection stay in RSS afterwards (V8 pools them for reuse). Hence its own
 * entry (`@heroes/platform/limit-heap-growth`, node:v8 only) and a main.ts
 * that loads the server after it.
 *
 * Usage (a server's main.ts, nothing imported before it):
 *   import { limitHeapGrowth } from '@heroes/platform/limit-heap-growth';
 *   limitHeapGrowth();
 *   await import('./server-process.ts');
 */
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;

export function limitHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT} --no-allocation-site-pretenuring`);
}
