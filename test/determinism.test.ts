/** Reproducibility and invariants: same inputs, same bytes; chunks independent; counts consistent. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { C } from '../src/model/counters.js';
import { ChunkSimulator } from '../src/engine/engine.js';
import { CHUNK_ACTIONS, planChunks, type ChunkPlan } from '../src/engine/plan.js';
import { chunkRng } from '../src/random/rng.js';
import { simulate } from '../src/exec/simulate.js';
import { DEFAULT_SCENARIO, type Scenario } from '../src/model/types.js';
import { arbScenario } from './arbitrary.js';
import { expectEqual } from './equal.js';
import { parseRunnable, sim } from './helpers.js';

const BUSY = `
workload: {twin_probability: 0.2}
service: {latency: {median: 800ms, sigma: 0.8}, error_rate: 0.05, crash_probability: 0.05}
network: {request_loss: 0.02, reply_loss: 0.05}
client: {timeout: 700ms}
runtime: {crash_probability: 0.1}
idempotency: {scope: intent, lease: 10s, retention: 5m}
`;

describe('reproducibility', () => {
  it('same scenario and seed give identical metrics; another seed gives others', () => {
    const a = JSON.stringify(sim(BUSY, 30_000, '7'));
    const b = JSON.stringify(sim(BUSY, 30_000, '7'));
    const c = JSON.stringify(sim(BUSY, 30_000, '8'));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it("a chunk's result does not depend on the chunks simulated before it on the same simulator", () => {
    const scenario = parseRunnable(BUSY, 'x');
    const [p0, p1] = planChunks('s', 2 * CHUNK_ACTIONS, scenario.load.rate_per_s) as [ChunkPlan, ChunkPlan];
    const reused = new ChunkSimulator(scenario, 100);
    reused.run(chunkRng('s', 0), p0);
    const after = reused.run(chunkRng('s', 1), p1);
    const alone = new ChunkSimulator(scenario, 100).run(chunkRng('s', 1), p1);
    expectEqual(after, alone);
    expect(after.grid.toData().diff.length).toBeGreaterThan(0);
  });

  it('a shard can place its chunks in time without simulating the others', () => {
    const all = planChunks('s', 10 * CHUNK_ACTIONS + 5, 50);
    expect(all).toHaveLength(11);
    expect(all[10]?.actions).toBe(5);
    expect(planChunks('s', 10 * CHUNK_ACTIONS + 5, 50, 7)).toEqual(all.slice(7));
    // Each offset is the sum of the spans before it; a span is Gamma(n) gaps of 20 ms (50/s):
    // mean 16,384 * 20 ms = 327.7 s, sd sqrt(16,384) * 20 ms = 2.6 s.
    all.slice(1).forEach((p, i) => expect(p.offset).toBe((all[i] as ChunkPlan).offset + (all[i] as ChunkPlan).span));
    for (const p of all.slice(0, 10)) expect(Math.abs(p.span - 327_680)).toBeLessThan(4 * 2_560);
  });

  it('a run is the sum of its chunks', () => {
    const scenario = parseRunnable(BUSY, 'x');
    const run = simulate({ ...scenario, actions: 2 * CHUNK_ACTIONS }, '3').metrics;
    const sim = new ChunkSimulator(scenario, 100);
    // A chunk's arrays are views valid until the simulator's next run: read them at once.
    const chunks = planChunks('3', 2 * CHUNK_ACTIONS, scenario.load.rate_per_s).map((p) => {
      const c = sim.run(chunkRng('3', p.index), p);
      return { actions: c.actions, duplicates: c.sum[C.duplicates] as number };
    });
    const duplicates = chunks.reduce((s, c) => s + c.duplicates, 0);
    const actions = chunks.reduce((s, c) => s + c.actions, 0);
    expect(run.actions).toBe(actions);
    expect(run.duplicates_per_1000.value).toBe((duplicates / actions) * 1000);
  });
});


describe('invariants over random scenarios', () => {
  it('counts are never negative and add up', () => {
    fc.assert(fc.property(arbScenario(300), fc.integer(), (scenario, seed) => {
      const m = simulate(scenario, String(seed)).metrics;
      const d = m.duplicates_per_1000;
      const rates = [d, d.transport, d.replan, d.replay, m.lost_per_1000, m.merged_per_1000, m.unknown_outcomes_per_1000,
        m.conflicts_409_per_1000, m.mismatches_422_per_1000, m.dedup_hits_per_1000, m.keys_per_action];
      for (const r of rates) expect(r.value).toBeGreaterThanOrEqual(0);
      expect(d.transport.value + d.replan.value + d.replay.value).toBeCloseTo(d.value, 9);
      expect(m.merged_per_1000.value).toBeLessThanOrEqual(m.lost_per_1000.value);
      // Each action executes 0 times (lost) or 1 + its duplicates.
      expect(m.executions_per_action.value).toBeCloseTo(1 - m.lost_per_1000.value / 1000 + d.value / 1000, 9);
      expect(m.attempts_per_action.value).toBeGreaterThanOrEqual(1);
      expect(m.peak_live_keys).toBeGreaterThanOrEqual(0);
      if (scenario.idempotency.scope === 'none') expect(m.keys_per_action.value).toBe(0);
      expect(JSON.stringify(simulate(scenario, String(seed)).metrics)).toBe(JSON.stringify(m));
    }), { numRuns: 150, seed: 42 });
  });
});
