/**
 * What the simulator (src/model) expects for a stream of a given size: it runs the scenario
 * on many actions and scales its per-action rates, with the spread a stream this small has.
 */
import type { CounterName } from '../model/counters.js';
import { readMetric } from '../results/metric-paths.js';
import { perActionMetric, type PerActionMetric } from '../results/metric-registry.js';
import { halfWidth, type Estimate } from '../results/metrics.js';
import { simulate } from '../exec/simulate.js';
import type { Scenario } from '../model/types.js';
import type { StreamCounts } from './replay.js';

/** The stream counts the simulator has a per-action metric for (metric-registry.ts), in report order. */
const COUNTED = ['attempts', 'executions', 'duplicates', 'lost', 'merged', 'unknown_outcomes', 'conflicts_409', 'mismatches_422', 'dedup_hits'] as const satisfies readonly (keyof StreamCounts & CounterName)[];
type Counted = (typeof COUNTED)[number];

/** Primary actions the simulator runs for the expected counts (a fraction of a second). */
export const SIMULATED_ACTIONS = 100_000;

/** An expected count for a stream of this size: the mean (with the simulator's 95% CI) and where 95% of such streams fall. */
export interface Expected extends Estimate { spread95: [number, number] }

export interface SimulatorExpectation {
  /** Actions simulated, twins included. */
  actions: number;
  expected: Partial<Record<keyof StreamCounts, Expected>>;
}

/**
 * The counts the simulator expects for a stream of `actions` actions (twins included), from
 * `simulated` primary actions. The
 * spread is a normal approximation: for small counts it is rough (a skewed count such as
 * 409s, several to one slow action, falls outside it more often than 5% of the time).
 */
export function expectedCounts(scenario: Scenario, seed: string, actions: number, simulated = SIMULATED_ACTIONS): SimulatorExpectation {
  const m = simulate({ ...scenario, actions: simulated }, seed).metrics;
  const per = (counter: Counted): Expected => {
    const { path, times: scale } = perActionMetric(counter) as PerActionMetric;
    // A counter metric is an estimate: it has a value and an interval.
    const e = readMetric(m, path) as { value: number; ci95: [number, number] };
    const mean = (e.value / scale) * actions;
    // The per-action sd, recovered from the simulator's interval (half-width = 1.96 sd / sqrt n).
    const sd = ((halfWidth(e) / 1.96) * Math.sqrt(m.actions)) / scale;
    const spread = 1.96 * sd * Math.sqrt(actions);
    return {
      value: mean, ci95: [(e.ci95[0] / scale) * actions, (e.ci95[1] / scale) * actions],
      spread95: [Math.max(0, mean - spread), mean + spread],
    };
  };
  return { actions: m.actions, expected: Object.fromEntries(COUNTED.map((c) => [c, per(c)])) };
}
