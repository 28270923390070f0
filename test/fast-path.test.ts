/**
 * The engine's fast path (simple groups, in `simulateArrivals`) is an optimisation only: with it on and off, every
 * chunk output must be the same, whatever the scenario.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkSimulator } from '../src/model/engine.js';
import { CHUNK_ACTIONS, planChunks, type ChunkPlan } from '../src/model/plan.js';
import { chunkRng } from '../src/model/rng.js';
import { DEFAULT_SCENARIO, type LatencySpec, type Scenario } from '../src/model/types.js';

/** One chunk of `scenario`, simulated with and without the fast path. */
function both(scenario: Scenario, seed: string, actions: number) {
  const [plan] = planChunks(seed, actions, scenario.load.rate_per_s) as [ChunkPlan];
  const run = (fast: boolean) => new ChunkSimulator(scenario, 100, fast).run(chunkRng(seed, plan.index), plan);
  return { fast: run(true), general: run(false) };
}

const probability = (max: number) => fc.oneof(fc.constant(0), fc.double({ min: 0, max, noNaN: true }));

const latency: fc.Arbitrary<LatencySpec> = fc.oneof(
  fc.record({ dist: fc.constant('lognormal' as const), median: fc.integer({ min: 1, max: 3000 }), sigma: fc.double({ min: 0, max: 2, noNaN: true }) }),
  fc.record({ dist: fc.constant('constant' as const), value: fc.integer({ min: 0, max: 3000 }) }),
  fc.record({ dist: fc.constant('exponential' as const), mean: fc.integer({ min: 1, max: 3000 }) }),
);

/** Scenarios across the parameter space, with the lab's common case (zeros) often drawn. */
const arbScenario: fc.Arbitrary<Scenario> = fc.record({
  latency,
  twin: probability(1), err: probability(0.3), crash: probability(0.3), requestLoss: probability(0.3), replyLoss: probability(0.3),
  timeout: fc.integer({ min: 50, max: 3000 }), retries: fc.integer({ min: 0, max: 5 }),
  replan: probability(1), drift: probability(1), verify: fc.boolean(),
  rtCrash: probability(1), maxReplays: fc.integer({ min: 0, max: 2 }),
  scope: fc.constantFrom('none', 'attempt', 'call', 'intent', 'business', 'text' as const),
  claim: fc.constantFrom('atomic', 'check_then_act' as const),
  fingerprint: fc.constantFrom('full', 'business', 'none' as const),
  lease: fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: null }),
  transactional: fc.boolean(), store: fc.boolean(),
  retention: fc.integer({ min: 0, max: 3_600_000 }),
}).map((r) => ({
  ...DEFAULT_SCENARIO,
  workload: { ...DEFAULT_SCENARIO.workload, twin_probability: r.twin },
  service: { ...DEFAULT_SCENARIO.service, latency: r.latency, error_rate: r.err, crash_probability: r.crash },
  network: { request_loss: r.requestLoss, reply_loss: r.replyLoss },
  client: { ...DEFAULT_SCENARIO.client, timeout: r.timeout, retries: r.retries },
  agent: { ...DEFAULT_SCENARIO.agent, replan_probability: r.replan, arg_drift_probability: r.drift, verify_before_replan: r.verify },
  runtime: { ...DEFAULT_SCENARIO.runtime, crash_probability: r.rtCrash, max_replays: r.maxReplays },
  idempotency: {
    ...DEFAULT_SCENARIO.idempotency, scope: r.scope, claim: r.claim, fingerprint: r.fingerprint,
    lease: r.lease, transactional: r.transactional, on_error: r.store ? 'store' : 'release', retention: r.retention,
  },
}) as Scenario);

describe('fast path', () => {
  it('gives the same chunk as the general model on the lab defaults, scope intent, a full chunk', () => {
    const scenario: Scenario = { ...DEFAULT_SCENARIO, idempotency: { ...DEFAULT_SCENARIO.idempotency, scope: 'intent' } };
    const { fast, general } = both(scenario, 'fast', CHUNK_ACTIONS);
    expect(fast).toEqual(general);
  });

  it('gives the same chunk as the general model across random scenarios', () => {
    fc.assert(fc.property(arbScenario, fc.integer(), (scenario, seed) => {
      const { fast, general } = both(scenario, String(seed), 2000);
      expect(fast).toEqual(general);
    }), { numRuns: 300, seed: 7 });
  });
});
