/** One run of a scenario on this thread: chunks simulated in order and summed. */
import { isCoupled } from '../model/capacity.js';
import { simulateCoupled } from './coupled.js';
import type { SaturationTally } from '../engine/coupled/saturation.js';
import { withPrimaries } from '../model/clock.js';
import { ChunkSimulator } from '../engine/engine.js';
import { RunState, type Metrics } from '../results/metrics.js';
import { runGrid } from '../engine/grid.js';
import { runPlans } from '../engine/plan.js';
import type { SeriesCounts } from '../model/series.js';
import { chunkRng } from '../random/rng.js';
import type { Scenario } from '../model/types.js';

export interface RunResult {
  scenario: Scenario;
  seed: string;
  metrics: Metrics;
  /** With a series step: the run's series. */
  series: SeriesCounts | null;
  /** The run's sums (its counters: an agent's readings read `duplicated`). */
  state: RunState;
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
  const grid = runGrid(scenario, scenario.actions, false);
  const sim = new ChunkSimulator(scenario, grid.step, true, undefined, seriesStep);
  const state = new RunState(grid.step, grid.cells, seriesStep, grid.cap);
  for (const plan of runPlans(scenario, seed)) {
    state.addChunk(sim.run(chunkRng(seed, plan.index), plan, state.grid));
  }
  return { scenario, seed, metrics: state.finish(scenario), series: state.series(), state };
}
