/**
 * Runs a coupled scenario (docs/model.md, "Capacity"): one simulation in time order on this
 * thread (engine/coupled/), fed the run's chunk plans in order; several scenarios or sweep
 * points still run side by side. Its arrivals are the chunk engine's (each chunk's own stream),
 * its other draws one stream of their own, so the same scenario and seed give the same bytes.
 * Browser-safe (the lab runs it); coupled-run.ts is the command line's, with progress and signals.
 */
import { CoupledSimulator } from '../engine/coupled/coupled.js';
import { drive } from '../engine/coupled/drive.js';
import { withTriggerNote } from '../engine/coupled/in-flight.js';
import { runGrid } from '../engine/grid.js';
import type { SaturationTally } from '../engine/coupled/saturation.js';
import { runPlans, type ChunkPlan } from '../engine/plan.js';
import { withPrimaries } from '../model/clock.js';
import type { Scenario } from '../model/types.js';
import { streamRng } from '../random/rng.js';
import { RunState } from '../results/metrics.js';

/**
 * A coupled run's pieces: its simulator, the sums it fills, and its chunk plans (`fastPath: false`:
 * every group through the general steps, for tests; `saturationTally`: the saturated time by bucket, the lab's).
 */
export function prepareCoupled(written: Scenario, seed: string, seriesStep: number | null, fastPath = true, saturationTally?: SaturationTally) {
  const scenario = withPrimaries(written, seed);
  const plans = (): Generator<ChunkPlan> => runPlans(scenario, seed);
  let lastArrival = 0;
  for (const plan of plans()) lastArrival = plan.offset + plan.span;
  const { step: gridStep, cells, cap } = runGrid(scenario, scenario.actions, false);
  const state = new RunState(gridStep, cells, seriesStep, cap);
  const sim = new CoupledSimulator({
    scenario, rng: streamRng(seed, 'coupled'), grid: state.grid, seriesStep,
    loadEnd: scenario.load.duration ?? lastArrival, fastPath, emit: (out) => state.addChunk(out),
    ...(saturationTally === undefined ? {} : { saturationTally }),
  });
  return { scenario, state, sim, plans, gridStep };
}

/** The run on this thread at once (tests, the lab's worker, `simulate`). */
export function simulateCoupled(written: Scenario, seed: string, seriesStep: number | null, fastPath = true, saturationTally?: SaturationTally): { scenario: Scenario; state: RunState } {
  const { scenario, state, sim, plans } = prepareCoupled(written, seed, seriesStep, fastPath, saturationTally);
  try {
    drive(sim, seed, plans());
  } catch (e) {
    throw withTriggerNote(e, scenario.trigger !== null);
  }
  return { scenario, state };
}
