/**
 * What a keyed simple group leaves in a chunk's outputs, as one discrete law, so that the chunk
 * engine counts such groups rather than drawing their latencies (count-path.ts; docs/model-decisions.md,
 * "Counting simple groups", says what of the stream it changes).
 *
 * A simple group (draws.ts: no twin, one attempt executed and answered in time, no replay) leaves
 * its latency's bin and one key row, live from its arrival (atomic claim) or its execution to its
 * execution plus the retention R. On the peak grid (peak.ts) that is +1 in the row's first cell and
 * -1 in the first cell past it, both counted from the cell of its arrival. Where the arrival falls
 * in a cell the chunk covers whole, its place in the cell, x, is uniform on (0, 1] and independent
 * of its latency L = L(v), v uniform on [0, 1) (the group's uniform given that it is simple): so
 * the triple (bin, first cell, last cell) has one law, the same for every such cell, computed here
 * once for the parameters and the grid step, and a group draws it from its v alone (Vose's alias
 * table).
 *
 * The law. L(v) rises with v (for a form whose draws rise smoothly, `LatencyCut.smooth`: not a
 * mixture, an empirical or a histogram latency, whose simple groups are visited), so [0, 1] cuts into
 * segments on which L's bin and the whole cells of (L + R)/step, and of L/step where the row starts at
 * the execution, stay the same (`segmentsOf`). On a segment the row's cells depend on x through those
 * fractions alone, which differ by a constant there: each cell pair's chance is a multiple of the
 * segment's width or of the integral of L over it, taken by 4-point Gauss-Legendre.
 */
import { binKey, keyStart } from './bins.js';
import type { Params } from './compile.js';
import { withinTimeout } from './draws.js';

/** More segments than this (a timeout of many grid steps, a wide latency), and the engine visits each simple group instead. */
export const MAX_SEGMENTS = 4096;
/**
 * v below this is one segment, of the cells of the latency at half of it, and a break found by
 * bisection is placed to within it: a chance of at most 2^-30 (1e-9) moved between neighbouring
 * categories, the tolerance the latency's own table keeps (model/latency/table.ts says why 1e-9 is
 * beyond what any run can see).
 */
const V_RESOLUTION = 2 ** -30;
/** Gauss-Legendre's 4 nodes on [-1, 1] and their weights. */
const NODES = [-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526];
const WEIGHTS = [0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538];

/** The law of a keyed simple group's (bin, first cell, last cell), as an alias table over its categories. */
export interface SimpleLaw {
  /** Categories. */
  readonly size: number;
  /** Vose's alias table: a draw x in [0, size) keeps column i = floor(x) when x - i < prob[i], else takes alias[i]. */
  readonly prob: Float64Array;
  readonly alias: Int32Array;
  /** Each category's latency bin (bins.ts key) and its row's first and first-not-live cells after its arrival's. */
  readonly bin: Int32Array;
  readonly first: Int32Array;
  readonly last: Int32Array;
  /** Each category's chance. */
  readonly mass: Float64Array;
  /** The range of v in which each category's latencies lie (a counted group's story is drawn in it: story-path.ts). */
  readonly vLow: Float64Array;
  readonly vHigh: Float64Array;
  /** The most cells past its arrival's a row ends in (the chunk's room on the grid). */
  readonly reach: number;
}

/** A segment's bin and the whole cells of L/step and (L + R)/step. */
interface Cells { bin: number; k0: number; k1: number }

interface Category { bin: number; first: number; last: number; mass: number; vLow: number; vHigh: number }

/** The law under `p` on a grid of `step` ms, or null: more than MAX_SEGMENTS segments, a retention not finite, or inside an incident window. */
export function simpleLaw(p: Params, step: number): SimpleLaw | null {
  // In steady time only (count-path.ts): no window's multiplier on the latency.
  if (!p.cut.smooth || p.latencyScale !== 1 || !Number.isFinite(p.retention) || !((p.retention + p.timeout) / step < 2 ** 30)) return null;
  const segments = segmentsOf(p, step);
  if (segments === null) return null;
  const categories = new Map<string, Category>();
  const add = (bin: number, first: number, last: number, mass: number, va: number, vb: number): void => {
    if (!(mass > 0)) return;
    const key = `${bin},${first},${last}`;
    const c = categories.get(key);
    if (c === undefined) categories.set(key, { bin, first, last, mass, vLow: va, vHigh: vb });
    else { c.mass += mass; c.vLow = Math.min(c.vLow, va); c.vHigh = Math.max(c.vHigh, vb); }
  };
  const rSteps = p.retention / step;
  for (let j = 0; j < segments.at.length - 1; j++) {
    const va = segments.at[j] as number, vb = segments.at[j + 1] as number;
    const { bin, k0, k1 } = segments.cells[j] as Cells;
    const dv = vb - va;
    if (p.atomic) {
      // The row starts in the arrival's cell; it ends one cell on past 1 - frac((L + R)/step). Segments
      // break only where (L + R)/step crosses a whole number, so J1 = ∫ frac((L + R)/step) dv directly.
      const j1 = clamp((segments.sum[j] as number) / step + (rSteps - k1) * dv, dv);
      add(bin, 0, k1, dv - j1, va, vb);
      add(bin, 0, k1 + 1, j1, va, vb);
      continue;
    }
    // J0 = ∫ frac(L/step) dv; J1 = ∫ frac((L + R)/step) dv = J0 + δ·Δv, δ constant on the segment.
    const j0 = clamp((segments.sum[j] as number) / step - k0 * dv, dv);
    const delta = Math.max(-1, Math.min(1, rSteps - (k1 - k0)));
    const j1 = clamp(j0 + delta * dv, dv);
    // x in (0, 1]: the first cell moves one on past 1 - frac(L/step), the last past 1 - frac((L + R)/step).
    const d0 = (later: number): number => k0 + later;
    if (delta <= 0) {
      add(bin, d0(0), k1, dv - j0, va, vb);
      add(bin, d0(1), k1, j0 - j1, va, vb);
      add(bin, d0(1), k1 + 1, j1, va, vb);
    } else {
      add(bin, d0(0), k1, dv - j1, va, vb);
      add(bin, d0(0), k1 + 1, j1 - j0, va, vb);
      add(bin, d0(1), k1 + 1, j0, va, vb);
    }
  }
  return lawOf([...categories.values()]);
}

function lawOf(list: Category[]): SimpleLaw {
  const total = list.reduce((s, c) => s + c.mass, 0);
  const { prob, alias } = vose(list.map((c) => c.mass / total));
  return {
    size: list.length, prob, alias,
    bin: Int32Array.from(list, (c) => c.bin), first: Int32Array.from(list, (c) => c.first), last: Int32Array.from(list, (c) => c.last),
    mass: Float64Array.from(list, (c) => c.mass / total),
    vLow: Float64Array.from(list, (c) => c.vLow), vHigh: Float64Array.from(list, (c) => c.vHigh),
    reach: list.reduce((m, c) => Math.max(m, c.last, c.first), 0),
  };
}

/** A simple group's latency for v, as draws.ts draws it. */
export function simpleLatency(p: Params, v: number): number {
  return withinTimeout(p.cut.below(v), p);
}

/** The same from the exact quantile (LatencyCut.belowExact): the law reads v's whole range, where a table would build every cell. */
function exactLatency(p: Params, v: number): number {
  return withinTimeout(p.cut.belowExact(v), p);
}

function clamp(x: number, dv: number): number {
  return Math.max(0, Math.min(dv, x));
}

function cellsOf(p: Params, step: number, l: number): Cells {
  return { bin: binKey(l), k0: Math.floor(l / step), k1: Math.floor((l + p.retention) / step) };
}

/**
 * The segments of [0, 1]: `at` their starts and the end 1, `cells` each one's, `sum` the integral
 * of L over each; null past MAX_SEGMENTS. A segment ends where L crosses a bin's lower edge, a
 * multiple of the step less the retention, or (where the row starts at the execution) a multiple
 * of the step: each such value's v from the latency's CDF where the form has one (`belowCdf`), else
 * by bisection. L is read at each segment's Gauss-Legendre nodes, its cells at the second node.
 */
function segmentsOf(p: Params, step: number): { at: number[]; cells: Cells[]; sum: number[] } | null {
  const crossings = crossingsOf(p, step, exactLatency(p, V_RESOLUTION), exactLatency(p, 1));
  if (crossings === null) return null;
  const at = [0, V_RESOLUTION];
  for (const t of crossings) {
    const v = vAt(p, t, at[at.length - 1] as number);
    if (v > (at[at.length - 1] as number) && v < 1) at.push(v);
  }
  at.push(1);
  const low = exactLatency(p, V_RESOLUTION / 2);
  const cells: Cells[] = [cellsOf(p, step, low)];
  const sum = [low * V_RESOLUTION];
  for (let j = 1; j < at.length - 1; j++) {
    const a = at[j] as number, b = at[j + 1] as number;
    const h = (b - a) / 2, c = (a + b) / 2;
    let total = 0, second = 0;
    for (let i = 0; i < 4; i++) {
      const l = exactLatency(p, c + h * (NODES[i] as number));
      total += (WEIGHTS[i] as number) * l;
      if (i === 1) second = l;
    }
    cells.push(cellsOf(p, step, second));
    sum.push(total * h);
  }
  return { at, cells, sum };
}

/** The latencies in (from, to] where a segment ends (see segmentsOf), in order; null when more than MAX_SEGMENTS. */
function crossingsOf(p: Params, step: number, from: number, to: number): number[] | null {
  const all: number[] = [];
  const lastKey = binKey(to);
  for (let key = binKey(from) + 1; key <= lastKey; key++) {
    if (all.length > MAX_SEGMENTS) return null;
    all.push(keyStart(key));
  }
  for (const shift of p.atomic ? [p.retention] : [p.retention, 0]) {
    for (let k = Math.floor((from + shift) / step) + 1; k * step - shift <= to; k++) {
      if (all.length > MAX_SEGMENTS) return null;
      all.push(k * step - shift);
    }
  }
  return all.sort((x, y) => x - y);
}

/** The least v (at least `from`) at which L reaches `t`: the CDF's value there, or bisection to within V_RESOLUTION. */
function vAt(p: Params, t: number, from: number): number {
  const v = p.cut.belowCdf(t);
  if (v === v) return Math.max(from, v);
  let lo = from, hi = 1;
  while (hi - lo > V_RESOLUTION) {
    const mid = (lo + hi) / 2;
    if (exactLatency(p, mid) >= t) hi = mid; else lo = mid;
  }
  return hi;
}

/** Vose's alias table of chances `w` (summing to 1). */
function vose(w: number[]): { prob: Float64Array; alias: Int32Array } {
  const k = w.length;
  const prob = new Float64Array(k);
  const alias = new Int32Array(k);
  const scaled = w.map((x) => x * k);
  const small: number[] = [], large: number[] = [];
  scaled.forEach((x, i) => (x < 1 ? small : large).push(i));
  while (small.length > 0 && large.length > 0) {
    const s = small.pop() as number, l = large.pop() as number;
    prob[s] = scaled[s] as number;
    alias[s] = l;
    scaled[l] = (scaled[l] as number) + (scaled[s] as number) - 1;
    (scaled[l] < 1 ? small : large).push(l);
  }
  for (const i of [...small, ...large]) { prob[i] = 1; alias[i] = i; }
  return { prob, alias };
}
