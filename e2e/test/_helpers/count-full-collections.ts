/**
 * Preload (`node --import tsx --import <this file> <server main.ts>`) for
 * heap-growth.test.ts: counts V8's full collections (mark-compact) from the
 * start of the process until it sets `--heap-growing-percent`, and writes
 * `full collections before --heap-growing-percent=<n>: <count>` to stderr
 * at that moment.
 */
import fs from 'node:fs';
import v8 from 'node:v8';

const profiler = new v8.GCProfiler();
profiler.start();
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (flags: string) => {
  if (flags.startsWith('--heap-growing-percent')) {
    const full = profiler.stop().statistics.filter((gc) => gc.gcType === 'MarkSweepCompact').length;
    // The cap is the first of the flags set at once (limit-heap-growth.ts).
    fs.writeSync(2, `full collections before ${flags.split(' ')[0]}: ${full}\n`);
  }
  setFlags(flags);
};
