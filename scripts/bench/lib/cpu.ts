/**
 * CPU time a process spends (Linux: utime + stime in /proc/<pid>/stat), to
 * print the CPU cost per request beside a throughput. On a shared, loaded
 * machine throughput swings with what else runs; CPU per request much less,
 * so it says whether a change made the work cheaper.
 */
import fs from 'node:fs';
import os from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this runs on

/** CPU milliseconds used so far by `pid` (user + system). */
export function cpuMsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * Usage:
 *   const meter = meterCpu(pid);
 *   ...load...
 *   const usPerRequest = meter.perRequest(result.requests.total);
 */
export function meterCpu(pid: number | undefined): { perRequest(requests: number): number | undefined } {
  if (pid === undefined || os.platform() !== 'linux') return { perRequest: () => undefined };
  const start = cpuMsOf(pid);
  return {
    perRequest(requests) {
      return requests > 0 ? ((cpuMsOf(pid) - start) * 1000) / requests : undefined;
    },
  };
}

/** `, 310 µs CPU/req` or nothing. */
export function formatCpu(usPerRequest: number | undefined, label = 'CPU/req'): string {
  return usPerRequest === undefined ? '' : `, ${usPerRequest.toFixed(0)} µs ${label}`;
}
