/** Metrics by dotted path (`call_latency_ms.p95`), for expectations, sweeps and CSV columns. */
import { metricDef, type DefOf, type MetricPath } from './metric-registry.js';
import type { Estimate, Metrics } from './metrics.js';
import type { SaturationField } from './saturation.js';

export { ALL_METRIC_PATHS, METRIC_PATHS, SWEEP_METRIC_PATHS, type MetricPath } from './metric-registry.js';

/**
 * Every metric of `T` as `path:kind`, `?` after one a run may leave out (or whose parent it may
 * leave out: `queue_wait_ms.p50`): a number is a `value`, a number or null a `quantile` (none of
 * no samples) but for the values that may be null (NullableValues), an Estimate an `estimate`
 * (its own fields beside value and ci95 are metrics too: `duplicates_per_1000.transport`).
 */
type MetricsOf<T, ParentOptional extends string = ''> = {
  [K in keyof T & string]-?: `${K}${FieldOf<Exclude<T[K], undefined>, undefined extends T[K] ? '?' : ParentOptional, K>}`
    | Nested<K, Exclude<T[K], undefined>, undefined extends T[K] ? '?' : ParentOptional>;
}[keyof T & string];
type FieldOf<V, Optional extends string, K extends string> =
  [V] extends [Estimate] ? `:estimate${Optional}` : [V] extends [number] ? `:value${Optional}`
  : [V] extends [number | null] ? `:${K extends NullableValues ? 'value' : 'quantile'}${Optional}` : never;
type Nested<K extends string, V, Optional extends string> =
  [V] extends [number | null] ? never : `${K}.${MetricsOf<V extends Estimate ? Omit<V, keyof Estimate> : V, Optional>}`;

/** Values (not quantiles) of `Metrics` that may be null: utilisation and the saturation shares, without service.capacity. */
type NullableValues = 'utilisation' | 'saturated_share' | 'offered_utilisation' | 'peak_offered_utilisation';

/** Numbers of `Metrics` that are no metric of the registry: the action rate the scales use, and a coupled run's T (JSON only). */
type NotMetrics = 'actions_per_second:value' | 'load_end_ms:value?';

/** Every metric of the registry as `path:kind`, `?` after one reported only where it applies (its `only`). */
type Registered = { [P in MetricPath]: `${P}:${DefOf<P>['kind']}${DefOf<P> extends { only: string } ? '?' : ''}` }[MetricPath];

/**
 * The registry and `Metrics` hold the same metrics, of the same kind: a registry entry without
 * its field (or of another kind, or `only` where the field is always there) fails to compile here
 * naming it, and so does a number of `Metrics` the registry lacks (but NotMetrics).
 */
type Same<Stray extends never, Unregistered extends never> = [Stray, Unregistered];
export type RegistryMatchesMetrics = Same<Exclude<Registered, MetricsOf<NumberMetrics>>, Exclude<MetricsOf<NumberMetrics>, Registered | NotMetrics>>;

/** `Metrics` but the saturation readings that are not one number of a fixed name (results/saturation.ts has their paths). */
type NumberMetrics = Omit<Metrics, SaturationField>;

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
