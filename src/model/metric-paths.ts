/** Metrics by dotted path (`call_latency_ms.p95`), for expectations, sweeps and CSV columns. */
import type { Estimate, Metrics } from './metrics.js';

/** Every numeric metric, in report order. Estimates carry a 95% interval. */
export const METRIC_PATHS = [
  'duplicates_per_1000', 'duplicates_per_1000.transport', 'duplicates_per_1000.replan', 'duplicates_per_1000.replay',
  'duplicates_per_day', 'lost_per_1000', 'merged_per_1000', 'unknown_outcomes_per_1000', 'conflicts_409_per_1000',
  'mismatches_422_per_1000', 'dedup_hits_per_1000', 'attempts_per_action', 'executions_per_action',
  'handler_over_timeout_fraction', 'attempts_unknown_fraction',
  'call_latency_ms.p50', 'call_latency_ms.p95', 'call_latency_ms.p99',
  'action_latency_ms.p50', 'action_latency_ms.p95', 'action_latency_ms.p99',
  'keys_per_action', 'peak_live_keys', 'keys', 'key_store_mb',
  'alert_baselines_per_s.dedup_hits', 'alert_baselines_per_s.conflicts_409',
  'alert_baselines_per_s.mismatches_422', 'alert_baselines_per_s.unknown_outcomes',
  'actions', 'primary_actions',
] as const;

export type MetricPath = (typeof METRIC_PATHS)[number];

export interface MetricReading {
  /** The value, or null where there is none (a quantile of no samples). */
  value: number | null;
  /** The 95% interval, for estimates. */
  ci95?: [number, number];
}

export function readMetric(m: Metrics, path: MetricPath): MetricReading {
  let node: unknown = m;
  for (const part of path.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node === 'number' || node === null) return { value: node };
  const e = node as Estimate;
  return { value: e.value, ci95: e.ci95 };
}

/** Latency metrics are in ms: their thresholds may be written as durations. */
export function isDurationMetric(path: string): boolean {
  return path.includes('_ms.');
}
