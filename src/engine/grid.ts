/**
 * A run's peak grid, sized (peak.ts counts on it): its step and the cells it is expected to
 * span, from the scenario and the most primary actions the run may simulate.
 */
import { meanRatePerS } from '../model/clock.js';
import type { WrittenScenario } from '../model/types.js';
import { GRID_CAP_SHARE, peakGridStep, runHorizon } from './peak.js';
import { deliveryReach, triggerOf } from '../model/trigger.js';

/**
 * With a precision target, the grid's step is sized for this many actions, or for
 * 1/PRECISION_GRID_SHARE of --max-actions if more; the grid grows past it as the run goes on,
 * to at most PRECISION_GRID_SHARE times its planned cells (about 2.7·10^8: 1 GB, 2 while it doubles; cell
 * indices well inside 32 bits).
 */
const PRECISION_GRID_ACTIONS = 1e9;
const PRECISION_GRID_SHARE = 256;

/** The grid step of a run of up to `maxActions` primary actions. */
export function gridStepFor(scenario: WrittenScenario, maxActions = scenario.actions): number {
  return peakGridStep(scenario.idempotency.retention, meanRatePerS(scenario), maxActions, longestDelay(scenario));
}

/** The grid cells a run of up to `maxActions` is expected to span (1% spare: arrivals are random), for `RunState`. */
export function gridCellsFor(scenario: WrittenScenario, maxActions: number, step: number): number {
  return Math.ceil((1.01 * runHorizon(scenario.idempotency.retention, meanRatePerS(scenario), maxActions, longestDelay(scenario))) / step);
}

/**
 * The grid of a run of up to `total` primary actions. A precision run (`precise`) stops where
 * its target is met, often far below its limit: a grid sized for the limit could leave no grid
 * instant inside the run (docs/model-decisions.md), so it is sized for fewer and grows.
 */
export function runGrid(scenario: WrittenScenario, total: number, precise: boolean): { step: number; cells: number; cap: number } {
  const actions = precise ? Math.min(total, Math.max(PRECISION_GRID_ACTIONS, total / PRECISION_GRID_SHARE)) : total;
  const step = gridStepFor(scenario, actions);
  const cells = gridCellsFor(scenario, actions, step);
  // A fixed run's rows end within GRID_CAP_SHARE times its cells (peak.ts, KeyGrid's `cap`); a precision run's grid grows as it goes.
  return { step, cells, cap: precise ? Infinity : GRID_CAP_SHARE * cells };
}

/**
 * Upper bound on how long after its arrival an action's calls can start (ms): its deliveries'
 * reach, then a run's twin, replays, re-plans and retries, each retry after the longest wait
 * (the backoff's cap, or a 409's or a shed 503's retry_after where longer). Without the deliveries
 * and the waits, a trigger's schedule of days left the grid's step fine and the grid grew to GBs.
 */
export function longestDelay(s: WrittenScenario): number {
  const { agent, runtime, workload, client } = s;
  const calls = (agent.max_replans + 1) * (runtime.max_replays + 1);
  const wait = Math.max(client.backoff.max, s.idempotency.conflict_retry_after ?? 0, s.service.capacity?.retry_after ?? 0);
  return deliveryReach(triggerOf(s)) + workload.twin_delay.max + runtime.max_replays * runtime.resume_delay.max
    + calls * (agent.replan_delay.max + (client.retries + 1) * (client.timeout + wait));
}
