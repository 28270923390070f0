/**
 * The coupled engine's one drive loop (engine/coupled/drive.ts): every plan fed once and in
 * order, the last block only after the drain, and the same blocks whether the loop is run at
 * once or a chunk at a time.
 */
import { KeyGrid } from '../src/engine/peak.js';
import { describe, expect, test } from 'vitest';
import { detachedOutput, type ChunkOutput } from '../src/engine/chunk-output.js';
import { CoupledSimulator } from '../src/engine/coupled/coupled.js';
import { drive, driving } from '../src/engine/coupled/drive.js';
import { CHUNK_ACTIONS, runPlans } from '../src/engine/plan.js';
import { streamRng } from '../src/random/rng.js';
import { parseRunnable } from './helpers.js';

/** Three chunks (2 full, 1 partial) through 30 workers at about half their capacity. */
const YAML = `actions: 40000
load: {rate_per_s: 100}
service: {latency: {median: 150ms, sigma: 0.5}, capacity: {workers: 30, queue: 50}}
client: {retries: 2}
`;
const SEED = '4';

function simulator(out: ChunkOutput[]): CoupledSimulator {
  const s = parseRunnable(YAML);
  return new CoupledSimulator({ scenario: s, rng: streamRng(SEED, 'coupled'), grid: new KeyGrid(1e9), seriesStep: null, loadEnd: Infinity, emit: (o) => out.push(detachedOutput(o)) });
}

const primaries = (outs: readonly ChunkOutput[]) => outs.reduce((n, o) => n + o.primaries, 0);

describe('the drive loop', () => {
  test('yields each plan once, in order, and emits the last block (with the saturation) only after them', () => {
    const out: ChunkOutput[] = [];
    const sim = simulator(out);
    const seen: number[] = [];
    for (const plan of driving(sim, SEED, runPlans(parseRunnable(YAML), SEED))) {
      if (plan === null) continue; // a slice within a chunk (this run has none of a million events)
      seen.push(plan.index);
      expect(out.every((o) => o.capacity?.saturation === undefined)).toBe(true);
      expect(out.every((o) => o.primaries === CHUNK_ACTIONS)).toBe(true);
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(out.at(-1)?.capacity?.saturation).toBeDefined();
    expect(primaries(out)).toBe(40_000);
  });

  test('run at once or a chunk at a time, the blocks are the same', () => {
    const whole: ChunkOutput[] = [];
    drive(simulator(whole), SEED, runPlans(parseRunnable(YAML), SEED));
    const stepped: ChunkOutput[] = [];
    const steps = driving(simulator(stepped), SEED, runPlans(parseRunnable(YAML), SEED));
    for (let step = steps.next(); step.done !== true; step = steps.next()) expect(step.value?.actions ?? 1).toBeGreaterThan(0);
    expect(stepped.map((o) => [...o.sum])).toEqual(whole.map((o) => [...o.sum]));
    expect(stepped.map((o) => o.capacity)).toEqual(whole.map((o) => o.capacity));
  });

  test('a loop left after its first chunk is not drained: no last block', () => {
    const out: ChunkOutput[] = [];
    const steps = driving(simulator(out), SEED, runPlans(parseRunnable(YAML), SEED));
    expect(steps.next().value).toMatchObject({ index: 0, actions: CHUNK_ACTIONS });
    steps.return();
    expect(out.every((o) => o.capacity?.saturation === undefined)).toBe(true);
    expect(primaries(out)).toBeLessThan(CHUNK_ACTIONS);
  });
});
