/** `--precision`: simulate until a metric's 95% confidence interval is narrow enough. */
import type { CounterName, CounterTally } from './counters.js';

/** Metrics a precision target can be set on: their counter and the scale of their unit. */
export const PRECISION_METRICS: Readonly<Record<string, readonly [CounterName, number]>> = {
  duplicates_per_1000: ['duplicates', 1000],
  'duplicates_per_1000.transport': ['duplicates_transport', 1000],
  'duplicates_per_1000.replan': ['duplicates_replan', 1000],
  'duplicates_per_1000.replay': ['duplicates_replay', 1000],
  lost_per_1000: ['lost', 1000],
  merged_per_1000: ['merged', 1000],
  unknown_outcomes_per_1000: ['unknown_outcomes', 1000],
  conflicts_409_per_1000: ['conflicts_409', 1000],
  mismatches_422_per_1000: ['mismatches_422', 1000],
  dedup_hits_per_1000: ['dedup_hits', 1000],
  attempts_per_action: ['attempts', 1],
  executions_per_action: ['executions', 1],
  keys_per_action: ['keys', 1],
};

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
