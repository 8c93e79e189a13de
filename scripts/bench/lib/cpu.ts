/**
 * CPU time a process spends (Linux: utime + stime in /proc/<pid>/stat), to
 * print the CPU cost per request beside a throughput. On a shared, loaded
 * machine throughput swings with what else runs; CPU per request much less,
 * so it says whether a change made the work cheaper.
 */
import fs from 'node:fs';
import os from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this runs on

/** CPU milliseconds used so far by `pid` (user + system; or `<pid>/task/<tid>`: one thread). */
export function cpuMsOf(pid: number | string): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU milliseconds used so far by the threads of `pid` named `name`
 * (/proc/<pid>/task/<tid>/comm), e.g. `libuv-worker`: libuv's thread pool,
 * where bcrypt runs; the rest of the process is its event loop, V8's
 * helpers (GC) and the like.
 */
function threadCpuMsOf(pid: number, name: string): number {
  let ms = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      if (fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() !== name) continue;
      ms += cpuMsOf(`${pid}/task/${tid}`);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ms;
}

/**
 * Usage:
 *   const meter = meterCpu(pid);
 *   ...load...
 *   const usPerRequest = meter.perRequest(result.requests.total);
 * meterCpu(pid, 'libuv-worker'): only the threads of that name.
 */
export function meterCpu(pid: number | undefined, threadName?: string): { perRequest(requests: number): number | undefined } {
  if (pid === undefined || os.platform() !== 'linux') return { perRequest: () => undefined };
  const read = () => (threadName === undefined ? cpuMsOf(pid) : threadCpuMsOf(pid, threadName));
  const start = read();
  return {
    perRequest(requests) {
      return requests > 0 ? ((read() - start) * 1000) / requests : undefined;
    },
  };
}

/** `, 310 µs CPU/req` or nothing. */
export function formatCpu(usPerRequest: number | undefined, label = 'CPU/req'): string {
  return usPerRequest === undefined ? '' : `, ${usPerRequest.toFixed(0)} µs ${label}`;
}
