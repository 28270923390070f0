/**
 * The chunk engine's retry path (engine/retry-path.ts) is an optimisation only: a group that is
 * not simple gets the same numbers on it as through the general model, and a group that leaves
 * it midway is rewound and simulated again there. Each test also checks that the path ran.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrivalTime, withPrimaries } from '../src/model/clock.js';
import { ChunkSimulator, detachedOutput } from '../src/engine/engine.js';
import { CHUNK_ACTIONS, planChunks, type ChunkPlan } from '../src/engine/plan.js';
import { chunkRng } from '../src/random/rng.js';
import { C } from '../src/model/counters.js';
import type { Scenario } from '../src/model/types.js';
import { arbScenario } from './arbitrary.js';
import { expectEqual } from './equal.js';
import { parseRunnable } from './helpers.js';

/** One chunk of `scenario` with the fast path (and so the retry path) and without, its series counted in `seriesStep` ms buckets (null: none); the groups that stayed on the retry path's general loop, and those its commonest group's shortcut took (reply-path.ts). */
function both(scenario: Scenario, seed: string, actions: number, seriesStep: number | null = null) {
  const [plan] = planChunks(seed, actions, scenario.load.rate_per_s) as [ChunkPlan];
  const fast = new ChunkSimulator(scenario, 100, true, undefined, seriesStep);
  const out = detachedOutput(fast.run(chunkRng(seed, plan.index), plan));
  const general = detachedOutput(new ChunkSimulator(scenario, 100, false, undefined, seriesStep).run(chunkRng(seed, plan.index), plan));
  return { fast: out, general, retried: fast.retriedGroups, answered: fast.answeredGroups };
}

describe('retry path', () => {
  // Per scope, a chunk where about a third of the groups retry (lost replies, slow handlers) and
  // some re-plan with new free text; "leaves" adds what sends groups back to the general model
  // (twins, 5xx, crashes, a runtime crash, keys and claims that expire between retries).
  const BASE = `network: {reply_loss: 0.3, request_loss: 0.05}
client: {timeout: 800ms, retries: 3, deadline: 4s, backoff: {jitter: equal}}
agent: {replan_probability: 0.8, max_replans: 2, arg_drift_probability: 0.5}
idempotency: {conflict_retry_after: 150ms, fingerprint: full`;
  const STAYS = `, retention: 1h}
service: {latency: {median: 400ms, sigma: 0.9}}`;
  const LEAVES = `, retention: 1500ms, lease: 700ms}
workload: {twin_probability: 0.05}
service: {latency: {median: 400ms, sigma: 0.9}, error_rate: 0.02, crash_probability: 0.02}
runtime: {crash_probability: 0.05}`;
  for (const scope of ['none', 'attempt', 'call', 'intent', 'business', 'text']) {
    for (const claim of ['atomic', 'check_then_act']) {
      it(`gives the general model's chunk at scope ${scope}, claim ${claim}, with groups that stay and groups that leave`, () => {
        for (const extra of [STAYS, LEAVES]) {
          const scenario = parseRunnable(`${BASE}, scope: ${scope}, claim: ${claim}${extra}`);
          const { fast, general, retried, answered } = both(scenario, `retry-${scope}-${claim}`, CHUNK_ACTIONS / 4);
          expectEqual(fast, general);
          // 4,096 groups of which some 48% are not simple (1 - 0.95 x 0.7 x P(latency < timeout), the last 0.78): most stay.
          expect(retried).toBeGreaterThan(500);
          // A lost first reply (some 0.3 x 0.95 x 0.78 of the groups), its retry through and answered by the
          // store (0.95 x 0.7): some 150 groups, where the retry carries the first attempt's key and it lasts.
          if (scope === 'none' || scope === 'attempt') expect(answered, 'no stored answer to a retry').toBe(0);
          else if (extra === STAYS) expect(answered).toBeGreaterThan(50);
        }
      });
    }
  }

  it('gives the general model\'s chunk where a lost reply\'s retry comes as its record expires (the shortcut rewinds, the retry path runs it again)', () => {
    // A handler of some 30 ms and a record kept 850 ms: the retry, 800 ms + U(0, 100 ms) after the
    // send, finds it expired for about a fifth of the lost replies (J > L + 50 ms) and runs the
    // handler again; the rest get the stored success.
    const scenario = parseRunnable(`network: {reply_loss: 0.3}
client: {timeout: 800ms, retries: 2, backoff: {base: 100ms, jitter: full}}
service: {latency: {median: 30ms, sigma: 0.3}}
idempotency: {scope: intent, retention: 850ms}`);
    const { fast, general, answered } = both(scenario, 'retry-expiring', CHUNK_ACTIONS / 4);
    expectEqual(fast, general);
    expect(answered).toBeGreaterThan(500);
    expect(fast.sum[C.duplicates]).toBeGreaterThan(100);
  });

  // With verify_before_replan, a step whose re-plan finds the action done ends when the re-plan was
  // due, which may be in the deploy's window when the call's end was not.
  it('gives the general model\'s chunks in incident windows, series included: a slowdown with errors, an outage of the key store, a deploy', () => {
    for (const scope of ['none', 'call', 'intent']) {
      const scenario = parseRunnable(`load: {duration: 20m, profile: [{at: 8m, rate_per_s: 90}]}
network: {reply_loss: 0.15}
agent: {verify_before_replan: true}
idempotency: {scope: ${scope}}
incidents:
  - {name: slow, from: 2m, to: 5m, service: {latency_multiplier: 4, error_rate: 0.05}, network: {reply_loss: 0.3}}
  - {name: outage, from: 6m, to: 7m, store: {down: true}}
  - {name: deploy, from: 9m, to: 570s, runtime: {crash_probability: 0.5}}`);
      const seed = `windows-${scope}`;
      const bound = withPrimaries(scenario, seed);
      let retried = 0;
      for (const plan of planChunks(seed, bound.actions, bound.load.rate_per_s, 0, undefined, arrivalTime(bound))) {
        const fast = new ChunkSimulator(bound, 100, true, undefined, 10_000);
        const out = detachedOutput(fast.run(chunkRng(seed, plan.index), plan));
        expectEqual(out, detachedOutput(new ChunkSimulator(bound, 100, false, undefined, 10_000).run(chunkRng(seed, plan.index), plan)));
        retried += fast.retriedGroups;
      }
      // Some 89,000 groups: about 18,900 stay on the path at scope intent and call.
      expect(retried).toBeGreaterThan(10_000);
    }
  });

  // Groups whose only failures are 5xx replies (no lost reply, no slow handler): they stay, their
  // errors stored under the key or their claims released, and a later attempt runs the handler again.
  it('gives the general model\'s chunk for groups whose handler answers 5xx, errors stored or claims released, and they stay', () => {
    for (const scope of ['none', 'attempt', 'call', 'intent', 'text']) {
      for (const onError of ['store', 'release']) {
        for (const claim of ['atomic', 'check_then_act']) {
          const scenario = parseRunnable(`service: {error_rate: 0.3}\nnetwork: {reply_loss: 0}\nclient: {timeout: 60s, retries: 3}
agent: {replan_probability: 0.8, arg_drift_probability: 0.5}
idempotency: {scope: ${scope}, claim: ${claim}, on_error: ${onError}, retention: 2s, fingerprint: full}`);
          const { fast, general, retried } = both(scenario, `errors-${scope}-${onError}-${claim}`, 2000);
          expectEqual(fast, general);
          // About 30% of the 2,000 groups fail their first attempt with a 5xx, and no group fails otherwise.
          expect(retried).toBeGreaterThan(400);
        }
      }
    }
  });

  // Groups at the path's bounds: 64 attempts and 16 calls stay, one more leaves; with series, an
  // attempt that runs the handler and times out counts four (send, timeout, execution, duplicate).
  it('gives the general model\'s chunk, series included, for groups of many attempts and calls, up to the path\'s bounds and past them', () => {
    const cases: [string, string][] = [
      ['none', 'client: {timeout: 100ms, retries: 63, backoff: {base: 10ms, max: 20ms}}'],
      ['attempt', 'client: {timeout: 100ms, retries: 70, backoff: {base: 10ms, max: 20ms}}'],
      ['call', 'client: {timeout: 100ms, retries: 3, backoff: {base: 10ms}}\nagent: {replan_probability: 1, max_replans: 15, replan_delay: {min: 1s, max: 2s}}'],
      // Every reply lost and no retry: each call fails, and the action makes 1 + max_replans calls.
      ['intent', 'network: {reply_loss: 1}\nclient: {timeout: 100ms, retries: 0}\nagent: {replan_probability: 1, max_replans: 15, replan_delay: {min: 1s, max: 2s}}'],
      ['intent', 'network: {reply_loss: 1}\nclient: {timeout: 100ms, retries: 0}\nagent: {replan_probability: 1, max_replans: 20, replan_delay: {min: 1s, max: 2s}}'],
    ];
    for (const [scope, client] of cases) {
      const scenario = parseRunnable(`service: {latency: {median: 300ms, sigma: 0.6}}\n${client}\nidempotency: {scope: ${scope}}`);
      const [plan] = planChunks(`bounds-${scope}`, 2000, scenario.load.rate_per_s) as [ChunkPlan];
      const run = (fast: boolean) => new ChunkSimulator(scenario, 100, fast, undefined, 10_000);
      const fast = run(true);
      const out = detachedOutput(fast.run(chunkRng('bounds', 0), plan));
      expectEqual(out, detachedOutput(run(false).run(chunkRng('bounds', 0), plan)));
      // Most of the 2,000 groups are not simple (a 100 ms timeout on a 300 ms median, or no reply); past the bounds, none stays.
      if (client.includes('max_replans: 20')) expect(fast.retriedGroups).toBe(0);
      else expect(fast.retriedGroups).toBeGreaterThan(50);
    }
  });

  it('leaves a group to the general model near the chunk\'s bound on work, which refuses it where it would have', () => {
    const scenario = parseRunnable('client: {timeout: 100ms, retries: 5}\nidempotency: {scope: intent}');
    const [plan] = planChunks('work', 2000, scenario.load.rate_per_s) as [ChunkPlan];
    const refusal = (fast: boolean) => {
      const sim = new ChunkSimulator(scenario, 100, fast);
      sim.maxWork = 1500;
      try { sim.run(chunkRng('work', 0), plan); } catch (e) { return { message: (e as Error).message, retried: sim.retriedGroups }; }
      return null;
    };
    const fast = refusal(true), general = refusal(false);
    expect(fast?.message).toContain('the scenario made more than 1,500');
    expect(fast?.message).toBe(general?.message);
    expect(fast?.retried).toBeGreaterThan(0);
  });

  it('gives the general model\'s chunk across random scenarios, and runs in many of them', () => {
    let ran = 0;
    fc.assert(fc.property(arbScenario(), fc.integer(), fc.constantFrom('none', 'full', 'equal' as const), fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: null }),
      fc.option(fc.integer({ min: 1, max: 2_000 }), { nil: null }), fc.integer({ min: 0, max: 4 }), (s, seed, jitter, deadline, retryAfter, maxReplans) => {
        const scenario: Scenario = {
          ...s,
          client: { ...s.client, deadline, backoff: { ...s.client.backoff, jitter } },
          agent: { ...s.agent, max_replans: maxReplans },
          idempotency: { ...s.idempotency, conflict_retry_after: retryAfter },
        };
        // Every other one with series (a 10 s step).
        const { fast, general, retried } = both(scenario, String(seed), 2000, seed % 2 === 0 ? 10_000 : null);
        expectEqual(fast, general);
        if (retried > 0) ran++;
      }), { numRuns: 200, seed: 36 });
    // The arbitrary often draws the lab's zero chances, and then no group retries: the path ran in 95 of these 200.
    expect(ran).toBeGreaterThan(60);
  });
});
