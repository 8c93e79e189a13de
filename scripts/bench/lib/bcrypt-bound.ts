/**
 * The bcrypt bound: raw compares per second at the servers' cost, in this process, as many in flight as libuv has
 * threads. An endpoint doing one compare per request cannot beat it; its ratio shows what the work around the hash
 * costs.
 */
import bcrypt from 'bcrypt';

export interface BcryptBound {
  comparesPerSecond: number;
  /** CPU of this process per compare (user + system, all threads), µs. */
  cpuUsPerCompare: number;
}

export async function bcryptBound(cost: number, ms: number): Promise<BcryptBound> {
  const hash = await bcrypt.hash('bench password', cost);
  const parallel = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const until = performance.now() + ms;
  let done = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (performance.now() < until) {
      await bcrypt.compare('bench password', hash);
      done++;
    }
  }));
  const used = process.cpuUsage(cpu);
  return { comparesPerSecond: done / ((performance.now() - started) / 1000), cpuUsPerCompare: (used.user + used.system) / Math.max(1, done) };
}
