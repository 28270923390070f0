/**
 * The engine's fast path (simple groups, in `simulateArrivals`) is an optimisation only: with it on and off, every
 * chunk output must be the same, whatever the scenario.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { arrivalTime, withPrimaries } from '../src/model/clock.js';
import { ChunkSimulator, detachedOutput } from '../src/engine/engine.js';
import { CHUNK_ACTIONS, planChunks, type ChunkPlan } from '../src/engine/plan.js';
import { chunkRng } from '../src/random/rng.js';
import { DEFAULT_SCENARIO, type Scenario } from '../src/model/types.js';
import { arbScenario } from './arbitrary.js';
import { expectEqual } from './equal.js';
import { parseRunnable } from './helpers.js';

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
    expectEqual(fast, general);
  });

  it('gives the same chunks as the general model on the lab defaults, scope none, one simulator for several chunks (bins read from the ranges it filled)', () => {
    const seed = 'fast-none';
    const plans = planChunks(seed, 4 * CHUNK_ACTIONS, DEFAULT_SCENARIO.load.rate_per_s);
    const fast = new ChunkSimulator(DEFAULT_SCENARIO, 100, true);
    for (const plan of plans) {
      const general = new ChunkSimulator(DEFAULT_SCENARIO, 100, false).run(chunkRng(seed, plan.index), plan);
      expectEqual(detachedOutput(fast.run(chunkRng(seed, plan.index), plan)), detachedOutput(general));
    }
  });

  it('keeps out of incident windows: the same chunks, series included, with a slowdown, an outage and a deploy', () => {
    const scenario = parseRunnable(`load: {duration: 20m, profile: [{at: 8m, rate_per_s: 90}]}
idempotency: {scope: intent}
incidents:
  - {name: slow, from: 2m, to: 4m, service: {latency_multiplier: 3, error_rate: 0.05}, network: {reply_loss: 0.1}}
  - {name: outage, from: 6m, to: 7m, store: {down: true}}
  - {name: deploy, from: 9m, to: 570s, runtime: {crash_probability: 1}}`);
    const seed = 'windows';
    const bound = withPrimaries(scenario, seed);
    for (const plan of planChunks(seed, bound.actions, bound.load.rate_per_s, 0, undefined, arrivalTime(bound))) {
      const run = (fast: boolean) => detachedOutput(new ChunkSimulator(bound, 100, fast, undefined, 10_000).run(chunkRng(seed, plan.index), plan));
      expectEqual(run(true), run(false));
    }
  });

  it('gives the same chunk as the general model across random scenarios', () => {
    fc.assert(fc.property(arbScenario(), fc.integer(), (scenario, seed) => {
      const { fast, general } = both(scenario, String(seed), 2000);
      expectEqual(fast, general);
    }), { numRuns: 300, seed: 7 });
  });
});
