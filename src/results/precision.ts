/** `--precision`: simulate until a metric's 95% confidence interval is narrow enough. */
import type { CounterName, CounterTally } from '../model/counters.js';
import { metricDef, PER_ACTION_METRICS } from './metric-registry.js';

/**
 * Metrics a precision target can be set on: their counter and the scale of their unit (see
 * metric-registry.ts). Not a coupled run's own (a guard's included): --precision refuses a coupled
 * scenario, and any other counts 0 of them. Nor a trigger's: a scenario without one counts 0 of
 * them, and a target on them would be reached at once.
 */
export const PRECISION_METRICS: Readonly<Record<string, readonly [CounterName, number]>> = Object.fromEntries(
  PER_ACTION_METRICS.filter((d) => metricDef(d.path)?.only === undefined).map((d) => [d.path, [d.counter, d.times] as const]),
);

export interface PrecisionTarget {
  /** Largest acceptable 95% CI half-width, in the metric's unit. */
  halfWidth: number;
  metric: string;
  /** Most primary actions to simulate. */
  maxActions: number;
}

/**
 * True once the metric's 95% half-width is at most the target. A rate that has not been
 * seen yet has a half-width of 0, which says nothing; so the run must also be long enough
 * that the "rule of three" bound for a count of zero (3 events per n actions, 95%) is
 * within the target: n >= 3 × scale / halfWidth.
 */
export function precisionReached(state: CounterTally, target: PrecisionTarget): boolean {
  const [counter, scale] = PRECISION_METRICS[target.metric] ?? ['duplicates', 1000];
  if (state.actions < (3 * scale) / target.halfWidth) return false;
  return state.counter(counter).half * scale <= target.halfWidth;
}
