/**
 * Resident set size of a process (Linux: VmRSS in /proc/<pid>/status), and
 * a sampler that keeps the peak while a measurement runs.
 */
import fs from 'node:fs';

export function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

/**
 * Usage:
 *   const sampler = sampleRss(pid, 50);
 *   ...load...
 *   const peakBytes = sampler.stop();
 */
export function sampleRss(pid: number, everyMs = 50): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}
