/**
 * RequestSeries (metrics/request-series.ts) scrapes as prom-client's own
 * Counter and Histogram fed the same requests: the registry's text is
 * compared whole, default labels included.
 */
import test from 'ava';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestSeries } from '../../src/metrics/request-series.ts';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const COUNTER = ['http_requests_total', 'HTTP requests answered, by method, route template and status'] as const;
const HISTOGRAM = ['http_request_duration_seconds', 'Time from request to the end of its answer, by method, route template and status'] as const;

/** method, route, status (undefined: nothing sent), seconds: bounds themselves, between them, 0 and beyond the last. */
const REQUESTS: [string, string, number | undefined, number][] = [
  ['GET', '/heroes', 200, 0.0012],
  ['GET', '/heroes/:id', 404, 0.005],
  ['GET', '/heroes', 200, 0.000_31],
  ['POST', '/auth/*', 200, 0.07],
  ['GET', 'unmatched', 404, 0],
  ['other', 'unmatched', 405, 12.5],
  ['GET', '/heroes', undefined, 0.3],
  ['GET', '/heroes', 200, 10],
  ['DELETE', '/heroes/:id', 204, 1.000_000_1],
  ['GET', '/heroes', 200, 0.1 + 0.2],
];

function prometheusRegistry(defaultLabels?: Record<string, string>): { registry: Registry; record: (typeof REQUESTS)[number] extends infer R ? (r: R) => void : never } {
  const registry = new Registry();
  if (defaultLabels) registry.setDefaultLabels(defaultLabels);
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: COUNTER[0], help: COUNTER[1], labelNames, registers: [registry] });
  const durations = new Histogram({ name: HISTOGRAM[0], help: HISTOGRAM[1], labelNames, buckets: BUCKETS, registers: [registry] });
  return {
    registry,
    record: ([method, route, status, seconds]) => {
      const labels = { method, route, status: status === undefined ? 'none' : String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
  };
}

function seriesRegistry(defaultLabels?: Record<string, string>): { registry: Registry; series: RequestSeries } {
  const registry = new Registry();
  if (defaultLabels) registry.setDefaultLabels(defaultLabels);
  const series = new RequestSeries(BUCKETS);
  registry.registerMetric(series.counter(...COUNTER));
  registry.registerMetric(series.histogram(...HISTOGRAM));
  return { registry, series };
}

for (const defaultLabels of [undefined, { server: 'resource-server' }]) {
  test(`the scrape text is prom-client's for the same requests${defaultLabels ? ' (default labels)' : ''}`, async (t) => {
    const expected = prometheusRegistry(defaultLabels);
    const actual = seriesRegistry(defaultLabels);
    t.is(await actual.registry.metrics(), await expected.registry.metrics(), 'nothing recorded');
    for (const request of REQUESTS) {
      expected.record(request);
      actual.series.record(...request);
    }
    const text = await actual.registry.metrics();
    t.is(text, await expected.registry.metrics());
    t.regex(text, /^http_request_duration_seconds_bucket\{le="0.005",(server="resource-server",)?method="GET",route="\/heroes\/:id",status="404"\} 1$/m);
    t.deepEqual(await actual.registry.getMetricsAsJSON().then((all) => all.map((m) => m.values.length)), [7, 7 * (BUCKETS.length + 3)]);
  });
}

test('resetMetrics() forgets every series, as for prom-client', async (t) => {
  const expected = prometheusRegistry();
  const actual = seriesRegistry();
  for (const request of REQUESTS) {
    expected.record(request);
    actual.series.record(...request);
  }
  expected.registry.resetMetrics();
  actual.registry.resetMetrics();
  actual.series.record('GET', '/heroes', 200, 0.002);
  expected.record(['GET', '/heroes', 200, 0.002]);
  t.is(await actual.registry.metrics(), await expected.registry.metrics());
});
