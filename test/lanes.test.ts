/**
 * Lanes and the precision stop, without threads: several lanes share one control block and
 * are stepped in an order fast-check chooses, with each worker lane's chunk sums reaching the
 * first thread late (as messages do). Whatever the order, the lanes' sums must add up to
 * exactly what one lane gives alone, and a precision run must stop at the same chunk.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Confirmer } from '../src/exec/confirmer.js';
import { controlBlock, Lane, type ChunkTotals, type LaneSpec } from '../src/exec/lane.js';
import { CounterTally } from '../src/model/counters.js';
import type { ChunkPlan } from '../src/engine/plan.js';
import { CHUNK_ACTIONS, planChunks } from '../src/engine/plan.js';
import { precisionReached, type PrecisionTarget } from '../src/results/precision.js';
import { ChunkSimulator } from '../src/engine/engine.js';
import { chunkRng } from '../src/random/rng.js';
import { DEFAULT_SCENARIO } from '../src/model/types.js';

const CHUNKS = 10;
const TOTAL = CHUNKS * CHUNK_ACTIONS;
const SEED = 'lanes';
/**
 * Lab defaults give about 44 duplicates per 1000 actions, sd about 0.21 per action, so the
 * half-width is about 1.96 × 0.21 × 1000 / √n ≈ 410 / √n: a target of 1.3 is met after about
 * 100,000 actions, six chunks of ten.
 */
const TARGET: PrecisionTarget = { metric: 'duplicates_per_1000', halfWidth: 1.3, maxActions: TOTAL };
/**
 * The lab with a fresh key per attempt: its duplicates are the lab's (no key is ever found), and
 * every action writes key rows, so the lanes' peak grids (the run's own, or a chunk's own while it
 * is not confirmed: exec/lane.ts) are summed too.
 */
const SCENARIO = { ...DEFAULT_SCENARIO, idempotency: { ...DEFAULT_SCENARIO.idempotency, scope: 'attempt' as const } };

function spec(precision: boolean, window: number): LaneSpec {
  return { scenario: SCENARIO, seed: SEED, total: TOTAL, from: 0, to: CHUNKS, gridStep: 100, gridCells: 0, gridCap: Infinity, seriesStep: undefined, window, control: controlBlock(0, CHUNKS, !precision) };
}

/** The first thread's loop of runner.ts with no workers. */
function alone(precision: boolean): { data: string; reached: boolean } {
  const s = spec(precision, 8);
  const lane = new Lane(s);
  const confirmer = precision ? new Confirmer(s.control, 0, CHUNKS, TARGET) : undefined;
  for (let plan = lane.claim(); plan; plan = lane.claim()) {
    const totals = lane.run(plan);
    if (totals) confirmer?.take(totals);
    confirmer?.confirm();
    lane.settle();
  }
  return { data: JSON.stringify(lane.state.toData()), reached: confirmer?.reached ?? false };
}

/**
 * Lanes stepped in the order `steps` gives: a step (lane, deliver) lets that lane claim or run
 * a chunk, or, with `deliver`, hands the first thread the oldest of that lane's unread chunk
 * sums. Lane 0 is the first thread: it reads its own sums at once and confirms at each step.
 */
function interleaved(precision: boolean, lanes: number, window: number, steps: [number, boolean][]): { data: string; reached: boolean } {
  const s = spec(precision, window);
  const all = Array.from({ length: lanes }, () => ({ lane: new Lane(s), plan: undefined as ChunkPlan | undefined, done: false, unread: [] as ChunkTotals[] }));
  const confirmer = precision ? new Confirmer(s.control, 0, CHUNKS, TARGET) : undefined;
  const step = (k: number, deliver: boolean) => {
    const l = all[k]!;
    if (deliver) {
      const t = l.unread.shift();
      if (t) confirmer?.take(t);
      return;
    }
    if (k === 0) confirmer?.confirm();
    l.lane.settle();
    if (l.done) return;
    l.plan ??= l.lane.claim();
    if (!l.plan) { l.done = true; return; }
    if (l.lane.mustWait(l.plan)) return;
    const totals = l.lane.run(l.plan);
    l.plan = undefined;
    if (totals && k === 0) confirmer?.take(totals);
    else if (totals) l.unread.push(totals);
  };
  for (const [k, deliver] of steps) step(k % lanes, deliver);
  // Then round-robin to the end, every message delivered: what the threads do once the chosen order runs out.
  for (let guard = 0; guard < 10_000 && all.some((l) => !l.done || l.unread.length > 0 || l.lane.settle() > 0); guard++) {
    for (let k = 0; k < lanes; k++) { step(k, true); step(k, false); }
  }
  confirmer?.confirm();
  for (const l of all) expect(l.lane.settle()).toBe(0);
  const [first, ...rest] = all.map((l) => l.lane.state);
  for (const other of rest) first!.addData(other.toData());
  return { data: JSON.stringify(first!.toData()), reached: confirmer?.reached ?? false };
}

const schedules = fc.record({
  lanes: fc.integer({ min: 2, max: 4 }),
  window: fc.integer({ min: 1, max: 6 }),
  steps: fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 60 }),
});

describe('lanes', () => {
  it('a fixed run: any number of lanes in any order sum to what one lane gives', () => {
    const expected = alone(false).data;
    expect(JSON.parse(expected).grid.diff.length).toBeGreaterThan(1000); // the rows' grid is summed too
    fc.assert(fc.property(schedules, ({ lanes, steps }) => {
      expect(interleaved(false, lanes, 0, steps).data).toBe(expected);
    }), { numRuns: 15 });
  });

  it('a precision run: the stop and the sums do not depend on the lanes or their order', () => {
    const expected = alone(true);
    // The stop is the first chunk at which the target holds, counted here from the chunks directly.
    const tally = new CounterTally();
    const sim = new ChunkSimulator(SCENARIO, 100);
    let stop = 0;
    for (const plan of planChunks(SEED, TOTAL, SCENARIO.load.rate_per_s)) {
      const out = sim.run(chunkRng(SEED, plan.index), plan);
      tally.add(out.actions, out.sum, out.sumSq);
      stop = plan.index + 1;
      if (precisionReached(tally, TARGET)) break;
    }
    expect(expected.reached).toBe(true);
    expect(stop).toBeGreaterThan(1);
    expect(stop).toBeLessThan(CHUNKS); // the target is met inside the run, so chunks after it are dropped
    expect(JSON.parse(expected.data).primaries).toBe(stop * CHUNK_ACTIONS);
    fc.assert(fc.property(schedules, ({ lanes, window, steps }) => {
      const got = interleaved(true, lanes, window, steps);
      expect(got.reached).toBe(true);
      expect(got.data).toBe(expected.data);
    }), { numRuns: 25 });
  });
});
