/** Metrics by dotted path (`call_latency_ms.p95`), for expectations, sweeps and CSV columns. */
import { metricDef, type MetricPath } from './metric-registry.js';
import type { Estimate, Metrics } from './metrics.js';

export { ALL_METRIC_PATHS, METRIC_PATHS, type MetricPath } from './metric-registry.js';

export interface MetricReading {
  /** The value, or null where there is none (a quantile of no samples). */
  value: number | null;
  /** The 95% interval, for estimates. */
  ci95?: [number, number];
}

export function readMetric(m: Metrics, path: MetricPath): MetricReading {
  let node: unknown = m;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node === 'number' || node === null || node === undefined) return { value: node ?? null }; // undefined: a metric this run does not report
  const e = node as Estimate;
  return { value: e.value, ci95: e.ci95 };
}

/** Metrics in ms (latencies): their thresholds may be written as durations. False for a name that is no metric. */
export function isDurationMetric(path: string): boolean {
  return metricDef(path)?.unit === 'ms';
}
