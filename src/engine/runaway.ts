/**
 * A bound on the work of one chunk of the chunk engine: its attempts and its deliveries. A
 * scenario's retries, re-plans, replays and redeliveries, each capped alone, multiply (1,000 of
 * each make 10^9 attempts an action), and a chunk runs to its end before a stop (SIGINT) is heard:
 * past the bound the run is refused, so that a chunk ends within seconds, whatever the file asks.
 */
import { CHUNK_ACTIONS } from './plan.js';

/** Attempts and deliveries one chunk may make: 1,221 an action on average (the lab makes 1.04). */
export const MAX_CHUNK_WORK = 20_000_000;

/**
 * A trace, which keeps every attempt, may make this many: 15 an action of a chunk on average
 * (mission 2 makes 4.9), some 170 MB traced (a million took 677 MB). --effects-out is refused past
 * it (a chunk; a coupled trace past `tracedWorkBound`); the timeline of a report or the lab is drawn
 * without actions past it (engine/trace.ts `traceActions`), since the run itself went on under its
 * own bound.
 */
export const MAX_TRACED_WORK = 250_000;

/**
 * The attempts and calls a coupled trace may keep for `actions` traced actions: MAX_TRACED_WORK, or
 * three an action where more (--effects-out traces up to 200,000 actions of a coupled run whole; a
 * healthy one keeps about 2.1 an action, one call and 1.05 attempts, and one with a 20% error rate
 * 2.4: 484 MB resident at 200,000 actions then). What it simulates around them is held to the run's
 * bound, not this: a report's timeline of a chunk late in the run simulates every chunk before it.
 */
export function tracedWorkBound(actions: number): number {
  return Math.max(MAX_TRACED_WORK, 3 * actions);
}

/** How the refusal's message begins, for the command line to tell it from a bug (exec/input-failure.ts). */
export const RUNAWAY_WORK = 'the scenario made more than';

/**
 * What a bound is of, in the refusal's words, given a chunk's actions as printed: a chunk of the
 * chunk engine, the same traced (a trace lowers its bound), each chunk of arrivals fed to a coupled
 * run, summed (coupled/state.ts), or what a coupled trace keeps (trace-coupled.ts). Functions, so
 * that nothing is formatted as the module loads: the first toLocaleString starts ICU, some 10 to
 * 20 ms, which every run paid at its start when these were strings.
 */
const BOUND_OF = {
  chunk: (actions: string) => `attempts and deliveries in one chunk of its actions (at most ${actions})`,
  traced: (actions: string) => `attempts and deliveries in one chunk of its actions (at most ${actions}) traced (--effects-out and reconcile --scenario keep every attempt)`,
  fed: (actions: string) => `attempts and deliveries for each ${actions} actions fed to the coupled run (one simulation of all of them), counted together`,
  kept: () => 'attempts and calls kept for the actions of the coupled run it traces (--effects-out and reconcile --scenario keep each one)',
} as const;

/**
 * The run made more than `limit` of what `of` counts (BOUND_OF). A plain Error, as the engine's
 * other refusals, so that it crosses a worker thread whole: its message says what and how to mend it.
 */
export class RunawayWork extends Error {
  constructor(readonly limit: number, of: keyof typeof BOUND_OF) {
    super(`${RUNAWAY_WORK} ${limit.toLocaleString('en-US')} ${BOUND_OF[of](CHUNK_ACTIONS.toLocaleString('en-US'))}, `
      + 'where its retries, re-plans, replays and redeliveries multiply. Lower client.retries, agent.max_replans, runtime.max_replays or trigger.redeliveries, '
      + 'or the chances that set them off (service.error_rate, agent.replan_probability, runtime.crash_probability, trigger.consumer_crash).');
    this.name = 'RunawayWork';
  }
}
