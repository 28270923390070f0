/**
 * The client guards (docs/model.md, "Capacity"): what stops a call's retry, or an attempt, on
 * the client's side for every call of the tool at once. One entry each: the key that sets it
 * (a section of `client`), the counter and series it counts what it stops in, its metric, and
 * where it acts. The engine's guard of each name is one file of engine/coupled/, registered in
 * engine/coupled/guards.ts; the coupling keys (capacity.ts), the results and the outputs read
 * this. Adding a guard: its keys (shape.ts), its counter and series, an entry here, its file and
 * its line there.
 */
import type { CounterName } from './counters.js';
import type { SeriesName } from './series.js';

interface GuardDef {
  /** Its key path, `client.<name>`. */
  readonly key: string;
  readonly counter: CounterName;
  readonly series: SeriesName;
  readonly metric: string;
  /**
   * When it decides: `retry` when the client learns a failure and decides to retry (in this
   * registry's order: the throttle before the budget, docs/model.md), `send` at each send.
   */
  readonly acts: 'retry' | 'send';
  /**
   * The contract version that added it: version 3's guards list their series and metric in
   * every coupled run (as they did); a later one's only in a run that sets it, so that runs
   * without it keep their bytes.
   */
  readonly since: 3 | 4;
  /** The word the action timeline marks a call it stopped with (engine/trace.ts). */
  readonly stop: string;
}

export const GUARDS = {
  retry_throttle: { key: 'client.retry_throttle', counter: 'throttled', series: 'throttled', metric: 'throttled_per_1000', acts: 'retry', since: 4, stop: 'throttle' },
  retry_budget: { key: 'client.retry_budget', counter: 'budget_denied', series: 'budget_denied', metric: 'budget_denied_per_1000', acts: 'retry', since: 3, stop: 'budget' },
  breaker: { key: 'client.breaker', counter: 'breaker_rejected', series: 'breaker_rejected', metric: 'breaker_rejected_per_1000', acts: 'send', since: 3, stop: 'breaker' },
} as const satisfies Record<string, GuardDef>;

export type GuardName = keyof typeof GUARDS;
/** The guards in the order a retry passes them. */
export const GUARD_NAMES = Object.keys(GUARDS) as readonly GuardName[];
/** Why a call sent no further attempt, as the timeline says it: the guard that stopped it. */
export type GuardStop = (typeof GUARDS)[GuardName]['stop'];
/** A guard's key path. */
export type GuardKey = (typeof GUARDS)[GuardName]['key'];
/** The series and metrics of guards added after version 3: listed only where their guard is set. */
export const LATER_GUARDS = GUARD_NAMES.filter((n) => GUARDS[n].since > 3);
