/** One run of a scenario on this thread: chunks simulated in order and summed. */
import { ChunkSimulator } from './engine.js';
import { RunState, type Metrics } from './metrics.js';
import { peakGridStep, runHorizon } from './peak.js';
import { planChunks } from './plan.js';
import { chunkRng } from '../random/rng.js';
import type { Scenario, WrittenScenario } from './types.js';

export interface RunResult {
  scenario: Scenario;
  seed: string;
  metrics: Metrics;
}

/** The grid step of a run of up to `maxActions` primary actions. */
export function gridStepFor(scenario: WrittenScenario, maxActions = scenario.actions): number {
  return peakGridStep(scenario.idempotency.retention, scenario.load.rate_per_s, maxActions, longestDelay(scenario));
}

/** The grid cells a run of up to `maxActions` is expected to span (1% spare: arrivals are random), for `RunState`. */
export function gridCellsFor(scenario: WrittenScenario, maxActions: number, step: number): number {
  return Math.ceil((1.01 * runHorizon(scenario.idempotency.retention, scenario.load.rate_per_s, maxActions, longestDelay(scenario))) / step);
}

/** Upper bound on how long after its arrival an action's calls can start (ms). */
function longestDelay({ agent, runtime, workload, client }: WrittenScenario): number {
  const calls = (agent.max_replans + 1) * (runtime.max_replays + 1);
  return workload.twin_delay.max + runtime.max_replays * runtime.resume_delay.max
    + calls * (agent.replan_delay.max + (client.retries + 1) * (client.timeout + client.backoff.max));
}

/** Simulates `scenario.actions` primary actions from `seed`. Same inputs, same numbers. */
export function simulate(scenario: Scenario, seed: string): RunResult {
  const step = gridStepFor(scenario);
  const sim = new ChunkSimulator(scenario, step);
  const state = new RunState(step, gridCellsFor(scenario, scenario.actions, step));
  for (const plan of planChunks(seed, scenario.actions, scenario.load.rate_per_s)) {
    state.addChunk(sim.run(chunkRng(seed, plan.index), plan));
  }
  return { scenario, seed, metrics: state.finish(scenario) };
}
