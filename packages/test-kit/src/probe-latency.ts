/**
 * How long a server's event loop was blocked while some work ran, from outside: GET `url` (a cheap route) one
 * request after another, each on a new connection, until `work` settles; the slowest answer bounds the longest stall.
 * Usage: const { result, slowestMs } = await probeLatencyWhile(`${auth}/health/live`, () => postHugeForm())
 */
import http from 'node:http';

export interface ProbedWork<T> {
  /** What `work` resolved to (its rejection is rethrown). */
  result: T;
  /** The slowest probe answer, ms (0 when none was sent). */
  slowestMs: number;
  /** Probes answered. */
  probes: number;
}

export async function probeLatencyWhile<T>(url: string, work: () => Promise<T>): Promise<ProbedWork<T>> {
  let done = false;
  let slowestMs = 0;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      await probe(url);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      probes++;
    }
  })();
  try {
    const result = await work();
    done = true;
    await probing; // the probe in flight counts too: it may be the one that waited out a stall
    return { result, slowestMs, probes };
  } finally {
    done = true;
    await probing;
  }
}

function probe(url: string): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', () => resolve());
  });
}
