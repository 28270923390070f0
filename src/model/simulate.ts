/** One run of a scenario on this thread: chunks simulated in order and summed. */
import { ChunkSimulator } from './engine.js';
import { RunState, type Metrics } from './metrics.js';
import { peakGridStep } from './peak.js';
import { planChunks } from './plan.js';
import { chunkRng } from './rng.js';
import type { Scenario } from './types.js';

export interface RunResult {
  scenario: Scenario;
  seed: string;
  metrics: Metrics;
}

/** The grid step of a run of up to `maxActions` primary actions. */
export function gridStepFor(scenario: Scenario, maxActions = scenario.actions): number {
  const { agent, runtime, workload, client } = scenario;
  // Upper bound on how long after its arrival an action's calls can start.
  const calls = (agent.max_replans + 1) * (runtime.max_replays + 1);
  const longestDelay = workload.twin_delay.max + runtime.max_replays * runtime.resume_delay.max
    + calls * (agent.replan_delay.max + (client.retries + 1) * (client.timeout + client.backoff.max));
  return peakGridStep(scenario.idempotency.retention, scenario.load.rate_per_s, maxActions, longestDelay);
}

/** Simulates `scenario.actions` primary actions from `seed`. Same inputs, same numbers. */
export function simulate(scenario: Scenario, seed: string): RunResult {
  const step = gridStepFor(scenario);
  const sim = new ChunkSimulator(scenario, step);
  const state = new RunState(step);
  for (const plan of planChunks(seed, scenario.actions, scenario.load.rate_per_s)) {
    state.addChunk(sim.run(chunkRng(seed, plan.index), plan));
  }
  return { scenario, seed, metrics: state.finish(scenario) };
}
