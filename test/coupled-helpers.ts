/** Runs of the coupled engine for tests, block by block. */
import { detachedOutput, type ChunkOutput } from '../src/engine/chunk-output.js';
import { CoupledSimulator } from '../src/engine/coupled/coupled.js';
import { chunkCount, chunkPlans, CHUNK_ACTIONS } from '../src/engine/plan.js';
import { arrivalTime } from '../src/model/clock.js';
import { chunkRng, streamRng } from '../src/random/rng.js';
import { simulateCoupled } from '../src/exec/coupled.js';
import { parseRunnable } from './helpers.js';

/** Every block a coupled run of `yaml` emits, the last (partial) one left out unless `all`. */
export function coupledBlocks(yaml: string, seed = '7', all = false): ChunkOutput[] {
  const s = parseRunnable(yaml);
  const out: ChunkOutput[] = [];
  const sim = new CoupledSimulator({ scenario: s, rng: streamRng(seed, 'coupled'), gridStep: 1e9, seriesStep: null, loadEnd: Infinity, emit: (o) => out.push(detachedOutput(o)) });
  for (const plan of chunkPlans(seed, s.actions, s.load.rate_per_s, 0, chunkCount(s.actions), arrivalTime(s))) {
    sim.feed(plan, chunkRng(seed, plan.index));
    sim.simulate(false);
  }
  sim.simulate(true);
  sim.flush();
  return all ? out : out.filter((o) => o.primaries === CHUNK_ACTIONS);
}


/** A coupled run's metrics and series, with or without the engine's fast path. */
export function coupledRun(yaml: string, seed: string, fastPath: boolean, seriesStep: number | null = 60_000) {
  const { scenario, state } = simulateCoupled(parseRunnable(yaml), seed, seriesStep, fastPath);
  return { metrics: state.finish(scenario), series: state.series() };
}
