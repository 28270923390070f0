/**
 * Per-action counts: the engine adds each action's count and its square, so that a
 * mean and its 95% confidence interval (mean ± 1.96·sd/√n, docs/model.md) come from sums alone.
 * All values are integers, so sums are exact and merge in any grouping.
 */
export const COUNTER_NAMES = [
  'duplicates', 'duplicates_transport', 'duplicates_replan', 'duplicates_replay',
  'lost', 'merged', 'unknown_outcomes', 'conflicts_409', 'mismatches_422', 'dedup_hits',
  'attempts', 'executions', 'keys', 'store_unavailable',
  // Capacity (docs/model.md): only a coupled run counts these; its metrics are reported only there.
  'shed', 'expired', 'budget_denied', 'breaker_rejected',
  // Actions executed more than once (0 or 1 an action): the agent's chance that a conversation
  // meets a duplicate (docs/agents.md) needs the share of actions duplicated, not their mean count.
  'duplicated',
  // gRPC's retry throttling (docs/model.md, "Capacity", version 4): last, so parts written before it read as 0.
  'throttled',
  // Inbound delivery (docs/model.md, version 4): executions of runs a redelivery started, deliveries
  // (the first included), actions delivered more than once, actions the sender gave up on.
  'duplicates_redelivery', 'deliveries', 'redelivered', 'dead_lettered',
] as const;
export type CounterName = (typeof COUNTER_NAMES)[number];

export const C = Object.fromEntries(COUNTER_NAMES.map((n, i) => [n, i])) as { readonly [K in CounterName]: number };
export const NUM_COUNTERS = COUNTER_NAMES.length;

/** Mean per action with the half-width of its 95% confidence interval. */
export function meanCi(sum: number, sumSq: number, n: number): { mean: number; half: number } {
  if (n === 0) return { mean: 0, half: 0 };
  const mean = sum / n;
  if (n < 2) return { mean, half: 0 };
  const variance = Math.max(0, (sumSq - (sum * sum) / n) / (n - 1));
  return { mean, half: (1.96 * Math.sqrt(variance)) / Math.sqrt(n) };
}

/** Per-action counter sums over some actions (a run's `RunState` is one, with histograms and grid besides). */
export class CounterTally {
  actions = 0;
  protected readonly sum = new Float64Array(NUM_COUNTERS);
  protected readonly sumSq = new Float64Array(NUM_COUNTERS);

  /** Adds the sums over `actions` more actions. */
  add(actions: number, sum: ArrayLike<number>, sumSq: ArrayLike<number>): void {
    this.actions += actions;
    for (let k = 0; k < NUM_COUNTERS; k++) {
      this.sum[k]! += sum[k] as number;
      this.sumSq[k]! += sumSq[k] as number;
    }
  }

  /** Mean per action of a counter with the half-width of its 95% CI. */
  counter(name: CounterName): { mean: number; half: number } {
    const k = C[name];
    return meanCi(this.sum[k] as number, this.sumSq[k] as number, this.actions);
  }
}
