/**
 * A server's event-loop delay (ms) since the last scrape of its /metrics (prom-client's monitorEventLoopDelay
 * histogram, reset at every scrape): scrape once to start a window, again to read it.
 */
export async function loopDelay(base: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]) * 1000;
  return { p99: read('p99'), max: read('max') };
}
