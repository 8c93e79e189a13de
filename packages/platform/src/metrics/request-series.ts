/**
 * Kept: with prom-client's label children GET /heroes cost 1.66× the anchor's CPU/req vs 1.43× (same-run A/B; goal 1.5×).
 * The request counter and duration histogram of createMetrics, counted in place per (method, route, status)
 * through Map lookups and handed to the registry at scrape time: prom-client's inc()/observe() build a labels
 * object and key per call. The scrape text is prom-client's own, byte for byte
 * (test/metrics/request-series.test.ts compares both); reset() forgets every series.
 */
import type { Metric } from 'prom-client';

interface Labels {
  method: string;
  route: string;
  status: string;
}

interface Series {
  labels: Labels;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), one per upper bound. */
  perBucket: number[];
}

/** What the registry reads of a metric (prom-client's Counter and Histogram have the same). */
interface ScrapedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: ScrapedValue[] }>;
  reset(): void;
}

interface ScrapedValue {
  labels: Record<string, string | number>;
  sharedLabels?: Labels;
  value: number;
  metricName?: string;
}

export class RequestSeries {
  /** method → route → status code (-1: nothing sent) → series. */
  #tree = new Map<string, Map<string, Map<number, Series>>>();
  /** Every series in the order it first appeared (prom-client lists them so). */
  #all: Series[] = [];
  readonly #bounds: readonly number[];

  constructor(bounds: readonly number[]) {
    this.#bounds = [...bounds];
  }

  /** One answered request: `status` undefined when no status line went out. */
  record(method: string, route: string, status: number | undefined, seconds: number): void {
    const code = status ?? -1;
    let byRoute = this.#tree.get(method);
    if (byRoute === undefined) this.#tree.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (byStatus === undefined) byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(code);
    if (series === undefined) {
      series = { labels: { method, route, status: status === undefined ? 'none' : String(status) }, count: 0, sum: 0, perBucket: this.#bounds.map(() => 0) };
      byStatus.set(code, series);
      this.#all.push(series);
    }
    series.count += 1;
    series.sum += seconds;
    // prom-client's rule: the first bound the value is not above; above all of them, only +Inf counts it.
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]!) {
        series.perBucket[i]! += 1;
        break;
      }
    }
  }

  reset(): void {
    this.#tree = new Map();
    this.#all = [];
  }

  /** The request count of every series, as a prom-client Counter shows it. */
  counter(name: string, help: string): Metric {
    const values = (): ScrapedValue[] => this.#all.map((series) => ({ labels: { ...series.labels }, value: series.count }));
    return this.#metric(name, help, 'counter', values);
  }

  /** The durations of every series, as a prom-client Histogram shows them. */
  histogram(name: string, help: string): Metric {
    // prom-client's shape: the bucket's own label (`le`) apart from the series' labels, which the registry puts after the default labels.
    const values = (): ScrapedValue[] => {
      const out: ScrapedValue[] = [];
      for (const { labels, count, sum, perBucket } of this.#all) {
        let cumulative = 0;
        this.#bounds.forEach((bound, i) => {
          cumulative += perBucket[i]!;
          out.push({ labels: { le: bound }, sharedLabels: labels, value: cumulative, metricName: `${name}_bucket` });
        });
        out.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: `${name}_bucket` });
        out.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${name}_sum` });
        out.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${name}_count` });
      }
      return out;
    };
    const metric = this.#metric(name, help, 'histogram', values);
    const forText = metric.get;
    // get() (getMetricsAsJSON) gives each value its labels in one object, as prom-client's Histogram does.
    return Object.assign(metric, {
      getForPromString: forText,
      get: async () => {
        const data = await forText();
        return { ...data, values: data.values.map(({ labels, sharedLabels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } })) };
      },
    });
  }

  #metric(name: string, help: string, type: 'counter' | 'histogram', values: () => ScrapedValue[]): ScrapedMetric & Metric {
    const metric: ScrapedMetric = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: () => Promise.resolve({ name, help, type, aggregator: 'sum', values: values() }),
      reset: () => this.reset(),
    };
    // The registry needs only what ScrapedMetric has; prom-client's types name its own classes.
    return metric as unknown as ScrapedMetric & Metric;
  }
}
