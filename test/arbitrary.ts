/**
 * Scenarios drawn across the model's whole parameter space for property tests (fast-check),
 * with the lab's common case (zero probabilities) often drawn.
 */
import fc from 'fast-check';
import { histogramValues } from '../src/model/latency/histogram-data.js';
import { DEFAULT_SCENARIO, type LatencySpec, type Scenario } from '../src/model/types.js';

const probability = (max: number) => fc.oneof(fc.constant(0), fc.double({ min: 0, max, noNaN: true }));

const latency: fc.Arbitrary<LatencySpec> = fc.oneof(
  fc.record({ dist: fc.constant('lognormal' as const), median: fc.integer({ min: 1, max: 3000 }), sigma: fc.double({ min: 0, max: 2, noNaN: true }) }),
  fc.record({ dist: fc.constant('constant' as const), value: fc.integer({ min: 0, max: 3000 }) }),
  fc.record({ dist: fc.constant('exponential' as const), mean: fc.integer({ min: 1, max: 3000 }) }),
  // Up to 6 buckets of widths 1 ms to 1 s (the first may end at 0), some empty, and some observations above every bound.
  fc.tuple(fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 50 })), { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 50 }), fc.boolean())
    .map(([steps, above, atZero]): LatencySpec => {
      let le = 0, count = 1;
      const buckets = steps.map(([width, n], i) => ({ le: (le += i === 0 && atZero ? 0 : width / 1000), count: (count += n) }));
      const total = count + above;
      return { dist: 'histogram', buckets, total, unit: null, file: null, format: null, metric: null, values: histogramValues(buckets, total, 1000) };
    }),
);

/** A scenario of `actions` primary actions. */
export const arbScenario = (actions = DEFAULT_SCENARIO.actions): fc.Arbitrary<Scenario> => fc.record({
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
  actions,
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
