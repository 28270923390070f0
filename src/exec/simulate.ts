/** One run of a scenario on this thread: chunks simulated in order and summed. */
import { isCoupled } from '../model/capacity.js';
import { simulateCoupled } from './coupled.js';
import type { SaturationTally } from '../engine/coupled/saturation.js';
import { meanRatePerS, withPrimaries } from '../model/clock.js';
import { ChunkSimulator } from '../engine/engine.js';
import { RunState, type Metrics } from '../results/metrics.js';
import { peakGridStep, runHorizon } from '../engine/peak.js';
import { runPlans } from '../engine/plan.js';
import type { SeriesCounts } from '../model/series.js';
import { chunkRng } from '../random/rng.js';
import type { Scenario, WrittenScenario } from '../model/types.js';

export interface RunResult {
  scenario: Scenario;
  seed: string;
  metrics: Metrics;
  /** With a series step: the run's series. */
  series: SeriesCounts | null;
  /** The run's sums (its counters: an agent's readings read `duplicated`). */
  state: RunState;
}

/** The grid step of a run of up to `maxActions` primary actions. */
export function gridStepFor(scenario: WrittenScenario, maxActions = scenario.actions): number {
  return peakGridStep(scenario.idempotency.retention, meanRatePerS(scenario), maxActions, longestDelay(scenario));
}

/** The grid cells a run of up to `maxActions` is expected to span (1% spare: arrivals are random), for `RunState`. */
export function gridCellsFor(scenario: WrittenScenario, maxActions: number, step: number): number {
  return Math.ceil((1.01 * runHorizon(scenario.idempotency.retention, meanRatePerS(scenario), maxActions, longestDelay(scenario))) / step);
}

/** Upper bound on how long after its arrival an action's calls can start (ms). */
export function longestDelay({ agent, runtime, workload, client }: WrittenScenario): number {
  const calls = (agent.max_replans + 1) * (runtime.max_replays + 1);
  return workload.twin_delay.max + runtime.max_replays * runtime.resume_delay.max
    + calls * (agent.replan_delay.max + (client.retries + 1) * (client.timeout + client.backoff.max));
}

/**
 * Simulates the scenario's primary actions (`actions`, or those arriving in `load.duration`)
 * from `seed` on this thread, counting series in buckets of `seriesStep` ms if given. Same
 * inputs, same numbers (exec/runner.ts gives the same on any number of threads). A coupled run
 * also counts its saturated time by bucket in `saturationTally` when given (the lab's chart).
 */
export function simulate(written: Scenario, seed: string, seriesStep: number | null = null, saturationTally?: SaturationTally): RunResult {
  if (isCoupled(written)) {
    const run = simulateCoupled(written, seed, seriesStep, true, saturationTally);
    return { scenario: run.scenario, seed, metrics: run.state.finish(run.scenario), series: run.state.series(), state: run.state };
  }
  const scenario = withPrimaries(written, seed);
  const step = gridStepFor(scenario);
  const sim = new ChunkSimulator(scenario, step, true, undefined, seriesStep);
  const state = new RunState(step, gridCellsFor(scenario, scenario.actions, step), seriesStep);
  for (const plan of runPlans(scenario, seed)) {
    state.addChunk(sim.run(chunkRng(seed, plan.index), plan));
  }
  return { scenario, seed, metrics: state.finish(scenario), series: state.series(), state };
}
