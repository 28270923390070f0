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
 * The tolerance. A cell is built at the first draw that falls in it, and its error measured
 * where it is the CDF error of a draw: |F(value at f) − (j + f)/CELLS|, F the side's exact
 * conditional CDF, at the three extremes of a cubic's error f(f − 1/3)(f − 2/3)(f − 1): f = 1/2
 * and (3 ± √5)/6. At 128 points a cell the error is at most 0.03% above theirs (220,000 cells of
 * 62 cuts, sigma 0.01 to 10), so they must keep 0.1% under TOLERANCE (1e-9). The cell is drawn
 * from its cubic only if they do, the cubic rises through the cell (|aⱼ| + |bⱼ| <= (Tⱼ₊₁ − Tⱼ)/2,
 * so a draw stays in [Tⱼ, Tⱼ₊₁] and rises with v) and the cell is narrow beside its values
 * (Tⱼ >= 15/16·Tⱼ₊₁, so the rounding of the formula, a few units in the last place of the cell's
 * width, cannot carry a draw past Tⱼ₊₁: `below` never exceeds the cut, `above` never reaches it).
 * Every other cell, runs at the two ends (the steep tails, and above the cut the last cell, which
 * runs to infinity), is drawn by the exact quantile. A cell's content is a function of the side
 * and j alone, whenever it is built, so a chunk's draws do not depend on the chunks drawn before
 * it; building cells as they are drawn rather than a side at once costs the draws nothing
 * measurable and a short run most of the building (1,000 draws of the lab's lognormal: 18 ms
 * rather than 43 ms, in a fresh process).
 *
 * Why 1e-9: the engine's results must change only within Monte Carlo error. A distortion of
 * 1e-9 in the probability of any event is a bias that n samples detect only once 1e-9 stands out
 * of their noise, sqrt(p(1 − p)/n) at least about 1e-9·sqrt(n) apart: beyond 10^18 samples,
 * where no run goes.
 *
 * Why 2048 cells: a side's table is 3·2048 + 1 doubles (48 KB). With 2048 cells the exact
 * quantile (some 60 ns) draws 0.44% of the lab's lognormal (median 300 ms, sigma 0.6, cut at 1 s)
 * and 0.57% of mission 2's (1200 ms, 0.6, cut at 600 ms), 0.3 ns a draw on average; 1024 cells
 * leave it 1.2% and 1.4%, 4096 cells 0.2% for twice the table and more building (every cell of
 * the lab's cut in 26, 38 and 55 ms with 1024, 2048 and 4096 cells, in a fresh process).
 * bench/latency-cut.js measures the draws.
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
/** What the error there may be: 0.1% under the tolerance, since between them it is up to 0.03% more. */
const MEASURED = TOLERANCE / 1.001;

/** A cell not built yet, drawn from its cubic, or drawn by the exact quantile. */
const UNBUILT = 0, TABLED = 1, EXACT = 2;

/**
 * A side's cells: [T₀, a₀, b₀, T₁, a₁, b₁, ..., T_CELLS], NaN where not known yet, and b NaN in
 * every cell not drawn from its cubic (so that a draw tests one number); then a cell past the
 * last, all NaN, where v = 1 (or a rounding above it) lands; and each cell's state.
 */
function emptyTable(): { values: Float64Array; states: Uint8Array } {
  return { values: new Float64Array(3 * (CELLS + 1) + 1).fill(NaN), states: new Uint8Array(CELLS) };
}

/** The cubic's value at f in the cell at k = 3j, as a draw computes it. */
const cubic = (t: Float64Array, k: number, f: number): number =>
  (t[k] as number) + f * ((t[k + 3] as number) - (t[k] as number) + (f - 1) * ((t[k + 1] as number) + f * (t[k + 2] as number)));

/**
 * A draw at x = v·CELLS from its cell's cubic, or NaN where b is (a cell not drawn from its cubic,
 * or the cell past the last, where v = 1 lands): the one expression every draw computes.
 */
function cubicAt(t: Float64Array, x: number): number {
  const j = x | 0, k = 3 * j, b = t[k + 2] as number, f = x - j, start = t[k] as number;
  return start + f * ((t[k + 3] as number) - start + (f - 1) * ((t[k + 1] as number) + f * b));
}

/** Builds cell j of a side: true when it is to be drawn from its cubic. */
function buildCell(side: Side, t: Float64Array, states: Uint8Array, j: number): boolean {
  const k = 3 * j;
  if (Number.isNaN(t[k])) t[k] = side.quantile(j / CELLS);
  if (Number.isNaN(t[k + 3])) t[k + 3] = side.quantile((j + 1) / CELLS);
  const start = t[k] as number, end = t[k + 3] as number, rise = end - start;
  // Through the thirds P₁, P₂: a + b/3 = 3/2·(rise − 3(P₁ − T)) and a + 2b/3 = 3·(rise − 3/2·(P₂ − T)).
  const first = 1.5 * (rise - 3 * (side.quantile((j + 1 / 3) / CELLS) - start));
  const second = 3 * (rise - 1.5 * (side.quantile((j + 2 / 3) / CELLS) - start));
  const a = 2 * first - second, b = 3 * (second - first);
  let good = Number.isFinite(end) && start >= (15 / 16) * end && Math.abs(a) + Math.abs(b) <= rise / 2;
  t[k + 1] = a; t[k + 2] = b;
  for (const f of CHECKS) good &&= Math.abs(side.cdf(cubic(t, k, f)) - (j + f) / CELLS) <= MEASURED;
  if (!good) t[k + 2] = NaN;
  states[j] = good ? TABLED : EXACT;
  return good;
}

/**
 * A cut drawn from each side's cells, by its cubic or by the side's exact quantile. One class for
 * every tabled form, so that the engine's call stays monomorphic. v = 1 falls past the last cell,
 * to the exact quantile.
 */
export class TableCut implements LatencyCut {
  private readonly low = emptyTable();
  private readonly high = emptyTable();
  private readonly lowValues = this.low.values;
  private readonly highValues = this.high.values;

  readonly smooth = true;
  constructor(readonly pBelow: number, readonly pAbove: number, private readonly lower: Side, private readonly upper: Side) {}

  below(v: number): number {
    const drawn = cubicAt(this.lowValues, v * CELLS);
    return drawn === drawn ? drawn : this.belowExactly(v, (v * CELLS) | 0);
  }

  belowExact(v: number): number {
    return this.lower.quantile(v);
  }

  belowCdf(x: number): number {
    return this.lower.cdf(x);
  }

  /** below(v) from the cell's cubic, or NaN: no branch, and no NaN constant, which would make the optimiser box every value this returns into the engine's loop. */
  belowQuick(v: number): number {
    return cubicAt(this.lowValues, v * CELLS);
  }

  quickBetween(v0: number, v1: number): boolean {
    const last = (v1 * CELLS) | 0;
    if (!(v0 >= 0 && v1 < 1 && last < CELLS)) return false;
    for (let j = (v0 * CELLS) | 0; j <= last; j++) {
      const state = this.low.states[j];
      if (state === EXACT || (state === UNBUILT && !buildCell(this.lower, this.lowValues, this.low.states, j))) return false;
    }
    return true;
  }

  above(v: number): number {
    const drawn = cubicAt(this.highValues, v * CELLS);
    return drawn === drawn ? drawn : this.aboveExactly(v, (v * CELLS) | 0);
  }

  /** Every cell built, and whether each is drawn from its cubic (for the tests and the bench). */
  cells(): { below: boolean[]; above: boolean[] } {
    const all = (side: Side, table: { values: Float64Array; states: Uint8Array }): boolean[] =>
      Array.from({ length: CELLS }, (_, j) => (table.states[j] === UNBUILT ? buildCell(side, table.values, table.states, j) : table.states[j] === TABLED));
    return { below: all(this.lower, this.low), above: all(this.upper, this.high) };
  }

  /** A cell not built: built, and drawn as it then says; a cell drawn exactly (or v = 1): the exact quantile. */
  private belowExactly(v: number, j: number): number {
    if (this.low.states[j] === UNBUILT && buildCell(this.lower, this.lowValues, this.low.states, j)) return this.below(v);
    return this.lower.quantile(v);
  }

  private aboveExactly(v: number, j: number): number {
    if (this.high.states[j] === UNBUILT && buildCell(this.upper, this.highValues, this.high.states, j)) return this.above(v);
    return this.upper.quantile(v);
  }
}
