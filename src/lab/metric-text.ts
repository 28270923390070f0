/** Which metrics the lab shows where, and each one's value as the run table writes it. */
import { readMetric, type MetricPath } from '../results/metric-paths.js';
import { metricDef } from '../results/metric-registry.js';
import type { Estimate, Metrics } from '../results/metrics.js';
import { duration, estimateText, num } from '../report/format.js';

/** The headline cards: what a lab session watches. */
export const HEADLINE_METRICS = [
  'duplicates_per_1000', 'lost_per_1000', 'unknown_outcomes_per_1000', 'conflicts_409_per_1000', 'attempts_per_action', 'call_latency_ms.p95',
] as const satisfies readonly MetricPath[];

/** The duplicates-by-source bar. */
export const BREAKDOWN_METRICS = ['duplicates_per_1000.transport', 'duplicates_per_1000.replan', 'duplicates_per_1000.replay'] as const satisfies readonly MetricPath[];

/** The key-store memory figure. */
export const KEY_STORE_METRICS = ['key_store_mb', 'keys', 'peak_live_keys', 'keys_per_action'] as const satisfies readonly MetricPath[];

/** A metric's label, as the run table's row gives it. */
export function metricLabel(path: string): string {
  return metricDef(path)?.label ?? path;
}

/** The metric's number at `path` (an estimate's value), as the JSON holds it; null where there is none. */
export function metricValue(metrics: Metrics, path: string): number | null {
  return metricDef(path) ? readMetric(metrics, path as MetricPath).value : null;
}

/** The metric's value in words: an estimate with its 95% CI, a duration in its unit, a percentage, or a number. */
export function metricText(metrics: Metrics, path: string): string {
  const def = metricDef(path);
  if (!def) return '–';
  const reading = readMetric(metrics, path as MetricPath);
  if (def.kind === 'estimate') return estimateText({ value: reading.value ?? 0, ci95: reading.ci95 ?? [0, 0] } as Estimate);
  const v = reading.value;
  if (v === null) return '–';
  switch (def.unit) {
    case 'ms': return duration(v);
    case 'fraction': return `${(v * 100).toFixed(2)}%`;
    case 'keys': return num(Math.round(v));
    default: return num(v);
  }
}
