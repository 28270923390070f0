/**
 * The engine's fast path (simple groups, in `simulateArrivals`) is an optimisation only: with it on and off, every
 * chunk output must be the same, whatever the scenario.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkSimulator } from '../src/model/engine.js';
import { CHUNK_ACTIONS, planChunks, type ChunkPlan } from '../src/model/plan.js';
import { chunkRng } from '../src/random/rng.js';
import { DEFAULT_SCENARIO, type Scenario } from '../src/model/types.js';
import { arbScenario } from './arbitrary.js';

/** One chunk of `scenario`, simulated with and without the fast path. */
function both(scenario: Scenario, seed: string, actions: number) {
  const [plan] = planChunks(seed, actions, scenario.load.rate_per_s) as [ChunkPlan];
  const run = (fast: boolean) => new ChunkSimulator(scenario, 100, fast).run(chunkRng(seed, plan.index), plan);
  return { fast: run(true), general: run(false) };
}


describe('fast path', () => {
  it('gives the same chunk as the general model on the lab defaults, scope intent, a full chunk', () => {
    const scenario: Scenario = { ...DEFAULT_SCENARIO, idempotency: { ...DEFAULT_SCENARIO.idempotency, scope: 'intent' } };
    const { fast, general } = both(scenario, 'fast', CHUNK_ACTIONS);
    expect(fast).toEqual(general);
  });

  it('gives the same chunk as the general model across random scenarios', () => {
    fc.assert(fc.property(arbScenario(), fc.integer(), (scenario, seed) => {
      const { fast, general } = both(scenario, String(seed), 2000);
      expect(fast).toEqual(general);
    }), { numRuns: 300, seed: 7 });
  });
});
