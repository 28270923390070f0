/**
 * A cut of a smooth distribution (lognormal, exponential) drawn from a table of its conditional
 * quantile function, so that a draw costs a few nanoseconds rather than an inverse error
 * function and an exponential: `below(v)` runs once per simulated action.
 *
 * How it works. Each side of the cut (L | L <= at, L | L > at) has CELLS cells over v in [0, 1].
 * A cell j holds the exact conditional quantiles at its edges, Tⱼ = Q(j/CELLS) and Tⱼ₊₁, and two
 * coefficients that make T + f·(Tⱼ₊₁ − Tⱼ + (f − 1)·(aⱼ + f·bⱼ)) the cubic through the exact
 * quantiles at its edges and thirds. A draw finds its cell (j = ⌊v·CELLS⌋, f its place inside)
 * and reads the cubic. That is exact at four points of every cell and distorts the conditional
 * CDF between them by O(CELLS⁻⁴). For the lab's lognormal below its cut, with 2048 cells, the
 * distortion is 4e-8 at the median and 1e-6 in the last cells before the cut for a line through
 * each cell's edges, 7e-12 and 4e-9 for a parabola through its edges and middle, and 1e-15 and
 * 2e-11 for the cubic. A line would need 8 times the cells to keep within the tolerance below
 * at the median alone.
 *
 * The tolerance. Building a side's table measures each cell's error where it is the CDF error of
 * a draw: |F(value at f) − (j + f)/CELLS|, F the side's exact conditional CDF, at the three
 * extremes of a cubic's error f(f − 1/3)(f − 2/3)(f − 1) (f = 1/2 and (3 ± √5)/6; at 128 points a
 * cell the error is no larger). A cell is drawn from its cubic only if that error is at most
 * TOLERANCE (1e-9), the cubic rises through the cell (|aⱼ| + |bⱼ| <= (Tⱼ₊₁ − Tⱼ)/2, so a draw
 * stays in [Tⱼ, Tⱼ₊₁] and rises with v) and the cell is narrow beside its values
 * (Tⱼ >= 15/16·Tⱼ₊₁, so the rounding of the formula, a few units in the last place of the cell's
 * width, cannot carry a draw past Tⱼ₊₁: `below` never exceeds the cut, `above` never reaches it).
 * Every other cell is drawn by the exact quantile: they are runs at the two ends (the steep
 * tails, and above the cut the last cell, which runs to infinity), so the table is drawn from in
 * the longest run of good cells, [from, to), and the fast branch is one range test. (A test of
 * each cell's own mark instead, which would let cells be built at their first draw, cost 2 ns a
 * draw more.)
 *
 * Why 1e-9: the engine's results must change only within Monte Carlo error. A distortion of
 * 1e-9 in the probability of any event is a bias that n samples detect only once 1e-9 stands out
 * of their noise, sqrt(p(1 − p)/n) at least about 1e-9·sqrt(n) apart: beyond 10^18 samples,
 * where no run goes.
 *
 * Why 2048 cells: a side's table is 3·2048 + 1 doubles (48 KB). With 2048 cells the exact
 * quantile draws 0.44% of the lab's lognormal (median 300 ms, sigma 0.6, cut at 1 s) and 0.57% of
 * mission 2's (1200 ms, 0.6, cut at 600 ms); 1024 cells leave it 1.2% and 1.4%, which cost up to
 * 2 ns a draw more, and 4096 cells 0.2% for twice the table and twice the time to build it
 * (bench/latency-cut.js measures both).
 */
import type { LatencyCut } from './form.js';

/** One side of a cut: its exact conditional quantile and CDF. */
export interface Side {
  /** The x with P(L <= x | side) = q, for q in [0, 1]: a finite value on the side (for q = 1 too). */
  quantile(q: number): number;
  /** P(L <= x | side), to some 1e-15 absolute. */
  cdf(x: number): number;
}

export const CELLS = 2048;
export const TOLERANCE = 1e-9;
/** Where in a cell the error is measured: the extremes of a cubic's error f(f − 1/3)(f − 2/3)(f − 1). */
const CHECKS = [(3 - Math.sqrt(5)) / 6, 1 / 2, (3 + Math.sqrt(5)) / 6];

/** A side's table: [T₀, a₀, b₀, T₁, a₁, b₁, ..., T_CELLS], and the run of cells [from, to) drawn from it. */
interface Table { readonly values: Float64Array; readonly from: number; readonly to: number }

const NONE: Table = { values: new Float64Array(0), from: 0, to: 0 };

/** The cubic's value at f in the cell at k = 3j, as a draw computes it. */
const cubic = (t: Float64Array, k: number, f: number): number =>
  (t[k] as number) + f * ((t[k + 3] as number) - (t[k] as number) + (f - 1) * ((t[k + 1] as number) + f * (t[k + 2] as number)));

/** Whether cell j (its edges in place) is to be drawn from its cubic: its coefficients set, its error measured. */
function goodCell(side: Side, t: Float64Array, j: number): boolean {
  const k = 3 * j, start = t[k] as number, end = t[k + 3] as number, rise = end - start;
  // Through the thirds P₁, P₂: a + b/3 = 3/2·(rise − 3(P₁ − T)) and a + 2b/3 = 3·(rise − 3/2·(P₂ − T)).
  const first = 1.5 * (rise - 3 * (side.quantile((j + 1 / 3) / CELLS) - start));
  const second = 3 * (rise - 1.5 * (side.quantile((j + 2 / 3) / CELLS) - start));
  const a = 2 * first - second, b = 3 * (second - first);
  t[k + 1] = a; t[k + 2] = b;
  if (!(Number.isFinite(end) && start >= (15 / 16) * end && Math.abs(a) + Math.abs(b) <= rise / 2)) return false;
  for (const f of CHECKS) if (!(Math.abs(side.cdf(cubic(t, k, f)) - (j + f) / CELLS) <= TOLERANCE)) return false;
  return true;
}

/** The table of a side, drawn from in the longest run of good cells. */
export function tableOf(side: Side): Table {
  const values = new Float64Array(3 * CELLS + 1);
  for (let j = 0; j <= CELLS; j++) values[3 * j] = side.quantile(j / CELLS);
  let from = 0, to = 0;
  for (let j = 0, runFrom = 0; j < CELLS; j++) {
    if (!goodCell(side, values, j)) runFrom = j + 1;
    else if (j + 1 - runFrom > to - from) { from = runFrom; to = j + 1; }
  }
  return { values, from, to };
}

/**
 * A cut drawn from each side's table in its good cells, and from the side's exact quantile in the
 * others. One class for every tabled form, so that the engine's call stays monomorphic. A side's
 * table is built at its first draw (never for a side of chance 0, nor for a cut no run draws
 * from), before that draw reads it: every draw of a chunk is the same wherever and after
 * whatever it runs.
 */
export class TableCut implements LatencyCut {
  private low = NONE.values;
  private belowFrom = 0;
  private belowTo = 0;
  private lowBuilt = false;
  private high = NONE.values;
  private aboveFrom = 0;
  private aboveTo = 0;
  private highBuilt = false;

  constructor(readonly pBelow: number, readonly pAbove: number, private readonly lower: Side, private readonly upper: Side) {}

  below(v: number): number {
    const x = v * CELLS, j = x | 0;
    if (j >= this.belowFrom && j < this.belowTo) {
      const t = this.low, f = x - j, k = 3 * j, start = t[k] as number;
      return start + f * ((t[k + 3] as number) - start + (f - 1) * ((t[k + 1] as number) + f * (t[k + 2] as number)));
    }
    return this.belowExactly(v);
  }

  above(v: number): number {
    const x = v * CELLS, j = x | 0;
    if (j >= this.aboveFrom && j < this.aboveTo) {
      const t = this.high, f = x - j, k = 3 * j, start = t[k] as number;
      return start + f * ((t[k + 3] as number) - start + (f - 1) * ((t[k + 1] as number) + f * (t[k + 2] as number)));
    }
    return this.aboveExactly(v);
  }

  /** Both tables built, and whether each cell is drawn from its cubic (for the tests and the bench). */
  cells(): { below: boolean[]; above: boolean[] } {
    this.buildLow();
    this.buildHigh();
    const run = (from: number, to: number): boolean[] => Array.from({ length: CELLS }, (_, j) => j >= from && j < to);
    return { below: run(this.belowFrom, this.belowTo), above: run(this.aboveFrom, this.aboveTo) };
  }

  /** The exact quantile; at the side's first draw, the draw from the table just built. */
  private belowExactly(v: number): number {
    return this.buildLow() ? this.below(v) : this.lower.quantile(v);
  }

  private aboveExactly(v: number): number {
    return this.buildHigh() ? this.above(v) : this.upper.quantile(v);
  }

  /** Builds the table below the cut unless it is built (false: it was). */
  private buildLow(): boolean {
    if (this.lowBuilt) return false;
    const table = this.pBelow > 0 ? tableOf(this.lower) : NONE;
    this.low = table.values; this.belowFrom = table.from; this.belowTo = table.to; this.lowBuilt = true;
    return true;
  }

  private buildHigh(): boolean {
    if (this.highBuilt) return false;
    const table = this.pAbove > 0 ? tableOf(this.upper) : NONE;
    this.high = table.values; this.aboveFrom = table.from; this.aboveTo = table.to; this.highBuilt = true;
    return true;
  }
}
