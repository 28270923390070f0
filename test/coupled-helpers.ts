/** Runs of the coupled engine for tests, block by block. */
import { KeyGrid } from '../src/engine/peak.js';
import { detachedOutput, type ChunkOutput } from '../src/engine/chunk-output.js';
import { CoupledSimulator } from '../src/engine/coupled/coupled.js';
import { drive } from '../src/engine/coupled/drive.js';
import { CHUNK_ACTIONS, runPlans } from '../src/engine/plan.js';
import { streamRng } from '../src/random/rng.js';
import { simulateCoupled } from '../src/exec/coupled.js';
import { parseRunnable } from './helpers.js';

/** Every block a coupled run of `yaml` emits, the last (partial) one left out unless `all`. */
export function coupledBlocks(yaml: string, seed = '7', all = false): ChunkOutput[] {
  const s = parseRunnable(yaml);
  const out: ChunkOutput[] = [];
  const sim = new CoupledSimulator({ scenario: s, rng: streamRng(seed, 'coupled'), grid: new KeyGrid(1e9), seriesStep: null, loadEnd: Infinity, emit: (o) => out.push(detachedOutput(o)) });
  drive(sim, seed, runPlans(s, seed));
  return all ? out : out.filter((o) => o.primaries === CHUNK_ACTIONS);
}


/** A coupled run's metrics and series, with or without the engine's fast path. */
export function coupledRun(yaml: string, seed: string, fastPath: boolean, seriesStep: number | null = 60_000) {
  const { scenario, state } = simulateCoupled(parseRunnable(yaml), seed, seriesStep, fastPath);
  return { metrics: state.finish(scenario), series: state.series() };
}
