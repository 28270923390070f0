/**
 * Keyed simple groups counted (engine/count-path.ts) rather than visited: from chunk COUNT_FROM_CHUNK
 * on, a chunk's numbers are those of the visited chunk in law, not draw for draw (each group draws a
 * place on the chunk's span rather than a gap, and the groups that are not simple draw after every
 * group's uniform and place). So chunks before it are compared bit for bit with the
 * visiting engine, and counted chunks statistically, and a counted chunk traced or with series bit for
 * bit with itself untraced (its stories come from a stream of their own).
 *
 * Tolerances: each figure compared is a sum over independent groups (two runs of the same chunks,
 * visited and counted, share nothing the figure depends on: a counted chunk draws its groups' places itself), so the
 * difference of the two sums, over the square root of the sum of their variances (estimated from
 * the sums of squares, or from the law), is about standard normal when the laws agree: |z| < 4.5
 * fails a correct engine about once in 150,000 per figure, and the seeds are fixed. Bins: a two-sample
 * chi-square over the bins with at least 10 counts, its z = (chi2 - k) / sqrt(2k) held to 4.5 likewise.
 */
import { describe, expect, it } from 'vitest';
import { ChunkSimulator, detachedOutput, type ChunkOutput } from '../src/engine/engine.js';
import { COUNT_FROM_CHUNK } from '../src/engine/count-path.js';
import { binKey, LatencyBins } from '../src/engine/bins.js';
import { KeyGrid } from '../src/engine/peak.js';
import { compile } from '../src/engine/compile.js';
import { D_NONE } from '../src/engine/draws.js';
import { CHUNK_ACTIONS, planChunks, type ChunkPlan } from '../src/engine/plan.js';
import { simpleLaw } from '../src/engine/simple-law.js';
import { traceChunk } from '../src/engine/trace.js';
import { COUNTER_NAMES, C } from '../src/model/counters.js';
import { NUM_SERIES, SER } from '../src/model/series.js';
import { chunkRng } from '../src/random/rng.js';
import type { Scenario } from '../src/model/types.js';
import { expectEqual } from './equal.js';
import { parseRunnable } from './helpers.js';

const LAB_INTENT = parseRunnable('idempotency: {scope: intent}');
/** Every group simple (no lost reply, a timeout no latency reaches): every difference is a counted group's. */
const ALL_SIMPLE = parseRunnable('{idempotency: {scope: intent}, network: {reply_loss: 0}, client: {timeout: 60s}}');

/** `chunks` chunks of `scenario` from COUNT_FROM_CHUNK on (or from `from`). */
function plansOf(scenario: Scenario, seed: string, chunks: number, from = COUNT_FROM_CHUNK): ChunkPlan[] {
  return planChunks(seed, (from + chunks) * CHUNK_ACTIONS, scenario.load.rate_per_s, from, from + chunks);
}

function run(sim: ChunkSimulator, seed: string, plan: ChunkPlan): ChunkOutput {
  return detachedOutput(sim.run(chunkRng(seed, plan.index), plan));
}

function z(a: { sum: number; sumSq: number }, b: { sum: number; sumSq: number }, n: number): number {
  const variance = (x: { sum: number; sumSq: number }) => Math.max(0, x.sumSq - (x.sum * x.sum) / n);
  const spread = Math.sqrt(variance(a) + variance(b));
  return spread === 0 ? (a.sum === b.sum ? 0 : Infinity) : (a.sum - b.sum) / spread;
}

/** Two-sample chi-square z of two sets of bin counts. */
function binsZ(a: LatencyBins, b: LatencyBins): number {
  const da = a.toData(), db = b.toData();
  const keys = new Map<number, [number, number]>();
  da.counts.forEach((c, j) => keys.set(da.offset + j, [c, 0]));
  db.counts.forEach((c, j) => { const e = keys.get(db.offset + j) ?? [0, 0]; e[1] = c; keys.set(db.offset + j, e); });
  return countsZ([...keys.values()]);
}

/** Two-sample chi-square z, (chi2 - k) / sqrt(2k), of pairs of counts (those of at least 10 in all). */
function countsZ(pairs: [number, number][]): number {
  let na = 0, nb = 0;
  for (const [x, y] of pairs) { na += x; nb += y; }
  let chi2 = 0, k = -1;
  for (const [x, y] of pairs) {
    if (x + y < 10) continue;
    chi2 += (Math.sqrt(nb / na) * x - Math.sqrt(na / nb) * y) ** 2 / (x + y);
    k++;
  }
  return (chi2 - k) / Math.sqrt(2 * k);
}

describe('counting keyed simple groups', () => {
  it('visits chunks before COUNT_FROM_CHUNK as before (bit for bit), and counts from it', () => {
    const seed = 'count-from';
    const [early] = plansOf(LAB_INTENT, seed, 1, COUNT_FROM_CHUNK - 1) as [ChunkPlan];
    const counting = new ChunkSimulator(LAB_INTENT, 100);
    expectEqual(run(counting, seed, early), run(new ChunkSimulator(LAB_INTENT, 100, true, undefined, null, false), seed, early));
    expect(counting.countedGroups).toBe(0);
    const [late] = plansOf(LAB_INTENT, seed, 1) as [ChunkPlan];
    const out = run(counting, seed, late);
    expect(counting.countedGroups).toBeGreaterThan(0.9 * late.actions);
    expect(out.primaries).toBe(late.actions);
  });

  it('puts every counted group\'s latency in its chunk\'s histograms, once, chunk after chunk (each category counted is added and cleared)', () => {
    // Exact, not in law: every action has one action latency, so the action histogram's count is
    // the chunk's actions, and every action makes at least one call.
    const seed = 'count-bins';
    const sim = new ChunkSimulator(LAB_INTENT, 100);
    for (const plan of plansOf(LAB_INTENT, seed, 6)) {
      const before = sim.countedGroups;
      const out = run(sim, seed, plan);
      expect(sim.countedGroups - before).toBeGreaterThan(0.9 * plan.actions);
      const bins = (data: ChunkOutput['actionLatency']) => { const b = new LatencyBins(); b.addData(data); return b.count; };
      expect(bins(out.actionLatency)).toBe(out.actions);
      expect(bins(out.callLatency)).toBeGreaterThanOrEqual(out.actions);
    }
  });

  it('gives a chunk the same bytes whatever the simulator ran before it: counted chunks, one visited because its grid could not make room, a grid with expected cells', () => {
    const seed = 'count-history';
    const [a, b, c] = plansOf(LAB_INTENT, seed, 3) as [ChunkPlan, ChunkPlan, ChunkPlan];
    const sim = new ChunkSimulator(LAB_INTENT, 100);
    run(sim, seed, a);
    // A cap just past the chunk's last arrival: its rows start before it, but their retention ends
    // past it, so the counted rows have no room and the chunk is visited (rows clipped at the cap).
    const capped = new KeyGrid(100, 0, Math.ceil((b.offset + b.span) / 100) + 100);
    const before = sim.countedGroups;
    sim.run(chunkRng(seed, b.index), b, capped);
    expect(sim.countedGroups).toBe(before); // not counted
    // The grid by its data: one with expected cells holds the same rows in a larger array.
    const data = (out: ChunkOutput) => ({ ...out, grid: out.grid.toData() });
    const expected = (grid: KeyGrid) => data(detachedOutput(sim.run(chunkRng(seed, c.index), c, grid)));
    const fresh = (grid: KeyGrid) => data(detachedOutput(new ChunkSimulator(LAB_INTENT, 100).run(chunkRng(seed, c.index), c, grid)));
    expectEqual(expected(new KeyGrid(100)), fresh(new KeyGrid(100)));
    expect(sim.countedGroups).toBeGreaterThan(before); // this one counted
    expectEqual(expected(new KeyGrid(100, 200_000)), fresh(new KeyGrid(100)));
  });

  it('draws, in order, each group\'s uniform and a simple one\'s place, and leaves the stream after them (the loop reads them from blocks: chunks of 1, 2, 512, 513 and 16,384 groups)', () => {
    // The loop's draws replayed one at a time: what it kept of the groups not simple, and where the
    // stream stands when the chunk's last group draws (setAsideLast, the first draw after the loop).
    const simpleP = compile(LAB_INTENT).reach[D_NONE] as number;
    for (const n of [1, 2, 512, 513, CHUNK_ACTIONS]) {
      const seed = `blocks/${n}`;
      const from = COUNT_FROM_CHUNK;
      const [plan] = planChunks(seed, from * CHUNK_ACTIONS + n, LAB_INTENT.load.rate_per_s, from, from + 1) as [ChunkPlan];
      expect(plan.actions).toBe(n);
      const sim = new ChunkSimulator(LAB_INTENT, 100);
      const inside = sim as unknown as { otherU: Float64Array; otherCount: number; setAsideLast(span: number): void };
      const seen: { state: unknown; others: number[] }[] = [];
      const setAsideLast = inside.setAsideLast;
      inside.setAsideLast = function (this: typeof inside, span: number) {
        seen.push({ state: rng.state(), others: Array.from(this.otherU.subarray(0, this.otherCount)) });
        setAsideLast.call(this, span);
      };
      const rng = chunkRng(seed, plan.index);
      sim.run(rng, plan);
      if (n > 512) expect(sim.countedGroups).toBeGreaterThan(0);
      const replay = chunkRng(seed, plan.index);
      const others: number[] = [];
      for (let a = 0; a < n - 1; a++) {
        const u = replay.next();
        if (u < simpleP) replay.next(); // its place
        else others.push(u);
      }
      expect(seen).toEqual([{ state: replay.state(), others }]);
      if (n === CHUNK_ACTIONS) expect(others.length).toBeGreaterThan(100); // groups not simple, an odd count of draws between blocks
    }
  });

  it('gives the visited chunks\' counters in law (the lab at scope intent, 24 chunks)', () => {
    const seed = 'count-law';
    const plans = plansOf(LAB_INTENT, seed, 24);
    const visit = new ChunkSimulator(LAB_INTENT, 100, true, undefined, null, false), count = new ChunkSimulator(LAB_INTENT, 100);
    const sums = (sim: ChunkSimulator) => {
      const sum = new Float64Array(COUNTER_NAMES.length), sumSq = new Float64Array(COUNTER_NAMES.length);
      const bins = new LatencyBins();
      let n = 0;
      for (const plan of plans) {
        const out = run(sim, seed, plan);
        out.sum.forEach((v, k) => { sum[k]! += v; sumSq[k]! += out.sumSq[k] as number; });
        bins.addData(out.callLatency);
        n += out.actions;
      }
      return { sum, sumSq, bins, n };
    };
    const a = sums(visit), b = sums(count);
    expect(b.n).toBe(a.n);
    for (const [k, name] of COUNTER_NAMES.entries()) {
      const zk = z({ sum: a.sum[k] as number, sumSq: a.sumSq[k] as number }, { sum: b.sum[k] as number, sumSq: b.sumSq[k] as number }, a.n);
      expect(Math.abs(zk), name).toBeLessThan(4.5);
    }
    expect(a.sum[C.duplicates]).toBe(0); // intent keys: the lab has none either way
    expect(Math.abs(binsZ(a.bins, b.bins))).toBeLessThan(4.5);
    expect(count.countedGroups).toBeGreaterThan(0.9 * a.n);
  });

  it('starts and ends the counted rows in law (every group simple)', () => {
    const seed = 'count-rows';
    const law = simpleLaw(compile(ALL_SIMPLE), 100);
    if (law === null) throw new Error('no law');
    let mean = 0, second = 0;
    for (let k = 0; k < law.size; k++) { mean += (law.mass[k] as number) * (law.last[k] as number); second += (law.mass[k] as number) * (law.last[k] as number) ** 2; }
    const rowVariance = second - mean * mean;
    const visit = new ChunkSimulator(ALL_SIMPLE, 100, true, undefined, null, false), count = new ChunkSimulator(ALL_SIMPLE, 100);
    let lengths = 0, rows = 0;
    const bins = [new LatencyBins(), new LatencyBins()];
    const starts: [number, number][] = [];
    for (const plan of plansOf(ALL_SIMPLE, seed, 12)) {
      const outs = [run(visit, seed, plan), run(count, seed, plan)];
      const data = outs.map((o) => o.grid.toData());
      const cells = data.map((d) => new Int32Array(Buffer.from(d.diff, 'base64').buffer.slice(0)));
      // The rows start in the chunk's cells, and end 36,000 cells (the hour's retention) later: the two
      // parts do not meet. A row starts in its arrival's cell, about 5 a cell: counted in blocks of 40 cells.
      const from = Math.ceil(plan.offset / 100);
      const block = (j: number, b: number) => { let n = 0; for (let g = b; g < b + 40; g++) n += cells[j]![g - data[j]!.base] ?? 0; return n; };
      const counts = [0, 0];
      for (let b = from - 40; b < Math.ceil((plan.offset + plan.span) / 100) + 40; b += 40) {
        starts.push([block(0, b), block(1, b)]);
        counts[0]! += block(0, b); counts[1]! += block(1, b);
      }
      // Every row starts in the blocks read (one a group: every group simple).
      expect(counts).toEqual([plan.actions, plan.actions]);
      for (const [j, diff] of cells.entries()) {
        // Σ over cells of the live count = Σ over rows of (last cell − first cell).
        let live = 0, sum = 0;
        for (const x of diff) { live += x; sum += live; }
        lengths += j === 0 ? sum : -sum;
      }
      rows += plan.actions;
      outs.forEach((o, j) => bins[j]!.addData(o.callLatency));
    }
    expect(count.countedGroups).toBeGreaterThan(0.99 * rows);
    expect(Math.abs(lengths / Math.sqrt(2 * rows * rowVariance))).toBeLessThan(4.5);
    expect(Math.abs(binsZ(bins[0]!, bins[1]!))).toBeLessThan(4.5);
    expect(starts.length).toBeGreaterThan(900);
    expect(Math.abs(countsZ(starts))).toBeLessThan(4.5);
  });

  it('traces a counted chunk with the run\'s numbers, each counted group told with its own bin', () => {
    const seed = 'count-trace';
    const [plan] = plansOf(LAB_INTENT, seed, 1, COUNT_FROM_CHUNK + 3) as [ChunkPlan];
    const plain = run(new ChunkSimulator(LAB_INTENT, 100), seed, plan);
    const { output, actions } = traceChunk(LAB_INTENT, 100, chunkRng(seed, plan.index), plan);
    expectEqual({ ...detachedOutput(output), grid: output.grid.toData() }, { ...plain, grid: plain.grid.toData() });
    expect(new Set(actions.map((x) => x.group)).size).toBe(plan.actions);
    // Numbered in the order they arrive, counted groups' stories among the others.
    expect(actions.every((x, j) => j === 0 || x.groupArrival >= (actions[j - 1] as typeof x).groupArrival)).toBe(true);
    // Every action's call latencies, binned from the stories, are the chunk's bins.
    const bins = new LatencyBins();
    for (const action of actions) for (const call of action.calls) bins.countKey(binKey(call.end - call.start));
    const chunk = new LatencyBins();
    chunk.addData(plain.callLatency);
    expectEqual(bins.toData(), chunk.toData());
  });

  it('tells each counted group in its own cell with its own row (every group simple: the stories\' rows are the chunk\'s grid)', () => {
    const seed = 'count-story-rows';
    const [plan] = plansOf(ALL_SIMPLE, seed, 1) as [ChunkPlan];
    const { output, actions } = traceChunk(ALL_SIMPLE, 100, chunkRng(seed, plan.index), plan);
    const rows = new KeyGrid(100);
    rows.rowsFrom(plan.offset);
    for (const action of actions) {
      const [execution] = action.executions;
      if (action.executions.length !== 1 || execution === undefined) throw new Error('a simple group executes once');
      rows.addRow(action.groupArrival, action.groupArrival + execution.at + ALL_SIMPLE.idempotency.retention);
    }
    expect(actions.length).toBe(plan.actions);
    expectEqual(rows.toData(), output.grid.toData());
  });

  it('counts a counted group\'s execution a latency after its arrival in its series (1 s buckets: a third cross into the next)', () => {
    const seed = 'count-series-latency';
    /** Σ over buckets of (executions − arrivals)²: the groups a latency carries over a bucket's edge, in and out. */
    const carried = (count: boolean) => {
      const sim = new ChunkSimulator(LAB_INTENT, 100, true, undefined, 1000, count);
      let sum = 0, buckets = 0;
      for (const plan of plansOf(LAB_INTENT, seed, 4)) {
        const rows = run(sim, seed, plan).series?.rows ?? new Int32Array(0);
        for (let r = 1; r < rows.length / NUM_SERIES - 1; r++) {
          sum += ((rows[r * NUM_SERIES + SER.executions] as number) - (rows[r * NUM_SERIES + SER.arrivals] as number)) ** 2;
          buckets++;
        }
      }
      return { sum, buckets };
    };
    const counted = carried(true), visited = carried(false);
    // Each bucket's difference is about normal (some 16 groups carried in and 16 out), so each sum of
    // squares is its variance times a chi-square of k ≈ 1,300 degrees of freedom, relative sd sqrt(2/k);
    // their ratio's is sqrt(4/k) ≈ 0.055, held to 4.5 of it (executions counted at the arrival made it 0.09).
    expect(counted.buckets).toBeGreaterThan(1000);
    expect(Math.abs(counted.sum / visited.sum - 1)).toBeLessThan(4.5 * Math.sqrt(4 / counted.buckets));
  });

  it('places the groups that are not simple over the whole span, in law (most groups time out)', () => {
    // Mission 2's service: some 88% of groups are not simple, their places drawn after the loop
    // (arrivals.ts sortedPlaces). Arrivals in 5 s buckets, counted against visited chunks: a two-sample
    // chi-square over some 66 buckets a chunk, about 250 arrivals each (those places drawn on half the
    // span fail it).
    const scenario = parseRunnable('{service: {latency: {median: 1200ms}}, client: {timeout: 600ms}, idempotency: {scope: call}}');
    const seed = 'count-others';
    const pairs: [number, number][] = [];
    const sims = [new ChunkSimulator(scenario, 100, true, undefined, 5_000), new ChunkSimulator(scenario, 100, true, undefined, 5_000, false)];
    for (const plan of plansOf(scenario, seed, 3)) {
      const cols = sims.map((sim) => {
        const rows = run(sim, seed, plan).series?.rows ?? new Int32Array(0);
        return Array.from({ length: rows.length / NUM_SERIES }, (_, r) => rows[r * NUM_SERIES + SER.arrivals] as number);
      });
      const buckets = Math.max(cols[0]!.length, cols[1]!.length);
      for (let r = 0; r < buckets; r++) pairs.push([cols[0]![r] ?? 0, cols[1]![r] ?? 0]);
    }
    expect(sims[0]!.countedGroups).toBeGreaterThan(0);
    expect(pairs.length).toBeGreaterThan(180);
    expect(Math.abs(countsZ(pairs))).toBeLessThan(4.5);
  });

  it('counts series from the stories without changing the chunk\'s numbers', () => {
    const seed = 'count-series';
    const [plan] = plansOf(LAB_INTENT, seed, 1) as [ChunkPlan];
    const plain = run(new ChunkSimulator(LAB_INTENT, 100), seed, plan);
    const series = run(new ChunkSimulator(LAB_INTENT, 100, true, undefined, 5_000), seed, plan);
    expectEqual({ ...series, series: null, grid: series.grid.toData() }, { ...plain, grid: plain.grid.toData() });
    const rows = series.series?.rows ?? new Int32Array(0);
    const total = (m: number) => { let s = 0; for (let r = m; r < rows.length; r += NUM_SERIES) s += rows[r] as number; return s; };
    expect(total(SER.arrivals)).toBe(plan.actions);
    // Arrivals and attempts are counted at the groups' places, as visited: the visited chunk's arrivals bucket for bucket, in law.
    const visited = run(new ChunkSimulator(LAB_INTENT, 100, true, undefined, 5_000, false), seed, plan).series?.rows ?? new Int32Array(0);
    // Some 66 buckets of 5 s over the chunk's 330 s (the rows may end a bucket apart: an execution carried past the last arrival's).
    const buckets = Math.max(rows.length, visited.length) / NUM_SERIES;
    const column = (rows: Int32Array, m: number) => Array.from({ length: buckets }, (_, r) => rows[r * NUM_SERIES + m] ?? 0);
    const arrivals = [column(rows, SER.arrivals), column(visited, SER.arrivals)];
    expect(buckets).toBeGreaterThan(60);
    expect(Math.abs(countsZ(arrivals[0]!.map((x, r) => [x, arrivals[1]![r]!])))).toBeLessThan(4.5);
    expect(total(SER.attempts)).toBe(plain.sum[C.attempts]);
    expect(total(SER.executions)).toBe(plain.sum[C.executions]);
  });
});
