/**
 * What the simulator (src/model) expects for a stream of a given size: it runs the scenario
 * on many actions and scales its per-action rates, with the spread a stream this small has.
 */
import type { Estimate } from '../model/metrics.js';
import { simulate } from '../model/simulate.js';
import type { Scenario } from '../model/types.js';
import type { StreamCounts } from './replay.js';

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
  const per = (e: Estimate, scale: number): Expected => {
    const mean = (e.value / scale) * actions;
    // The per-action sd, recovered from the simulator's interval (half-width = 1.96 sd / sqrt n).
    const sd = (((e.ci95[1] - e.ci95[0]) / 2 / 1.96) * Math.sqrt(m.actions)) / scale;
    const spread = 1.96 * sd * Math.sqrt(actions);
    return {
      value: mean, ci95: [(e.ci95[0] / scale) * actions, (e.ci95[1] / scale) * actions],
      spread95: [Math.max(0, mean - spread), mean + spread],
    };
  };
  return {
    actions: m.actions,
    expected: {
      attempts: per(m.attempts_per_action, 1),
      executions: per(m.executions_per_action, 1),
      duplicates: per(m.duplicates_per_1000, 1000),
      lost: per(m.lost_per_1000, 1000),
      merged: per(m.merged_per_1000, 1000),
      unknown_outcomes: per(m.unknown_outcomes_per_1000, 1000),
      conflicts_409: per(m.conflicts_409_per_1000, 1000),
      mismatches_422: per(m.mismatches_422_per_1000, 1000),
      dedup_hits: per(m.dedup_hits_per_1000, 1000),
    },
  };
}
