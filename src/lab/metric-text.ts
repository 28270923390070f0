/** Which metrics the lab shows where, and each one's value as the run table writes it. */
import { readMetric, type MetricPath } from '../results/metric-paths.js';
import { metricDef, metricTitle } from '../results/metric-registry.js';
import type { Metrics } from '../results/metrics.js';
import { metricText as reportText } from '../report/metric-text.js';

/** The headline cards: what a lab session watches. */
export const HEADLINE_METRICS = [
  'duplicates_per_1000', 'lost_per_1000', 'unknown_outcomes_per_1000', 'conflicts_409_per_1000', 'attempts_per_action', 'call_latency_ms.p95',
] as const satisfies readonly MetricPath[];

/** The duplicates-by-source bar. */
export const BREAKDOWN_METRICS = ['duplicates_per_1000.transport', 'duplicates_per_1000.replan', 'duplicates_per_1000.replay'] as const satisfies readonly MetricPath[];
/** The bar's fourth source, shown where the run has a trigger (docs/model.md, "Inbound delivery"). */
export const TRIGGER_BREAKDOWN_METRIC = 'duplicates_per_1000.redelivery' satisfies MetricPath;

/** The key-store memory figure. */
export const KEY_STORE_METRICS = ['key_store_mb', 'keys', 'peak_live_keys', 'keys_per_action'] as const satisfies readonly MetricPath[];

/** A metric's label, as the run table's row gives it. */
export function metricLabel(path: string): string {
  return metricDef(path)?.label ?? path;
}

/** A metric's name standing alone (its registry title), for the table of every metric, which has no section headings. */
export function metricName(path: string): string {
  return metricDef(path) ? metricTitle(path as MetricPath) : path;
}

/** The metric's number at `path` (an estimate's value), as the JSON holds it; null where there is none. */
export function metricValue(metrics: Metrics, path: string): number | null {
  return metricDef(path) ? readMetric(metrics, path as MetricPath).value : null;
}

/** The metric's value in words, as the run table writes it (report/metric-text.ts); – for a name that is no metric. */
export function metricText(metrics: Metrics, path: string): string {
  return metricDef(path) ? reportText(metrics, path as MetricPath) : '–';
}
