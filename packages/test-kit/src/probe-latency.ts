/**
 * Test and benchmark helper (import from '@heroes/test-kit'): how
 * long a server's event loop was blocked while some work ran, measured
 * from outside: GET `url` (a cheap route, e.g. /health/live) one after
 * another until `work` settles; the slowest answer bounds the longest
 * stall (a blocked loop answers nothing). Each probe is a new connection,
 * so a stalled keep-alive socket never hides one.
 *
 * Usage:
 *   const { result, slowestMs, probes } = await probeLatencyWhile(`${auth}/health/live`, () => postHugeForm());
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
