/**
 * peak_live_keys: the most key records live at one instant, counted on a time grid. The
 * grid holds +1 where a record starts and -1 where it ends; the live count at an instant is
 * the prefix sum. Counts are integers, so grids from chunks, threads or shards add up
 * exactly in any order, and the grid's size is bounded whatever the number of actions.
 */

/** Cells the grid may span over a run's expected duration (the step grows instead). */
const MAX_RUN_CELLS = 2 ** 20;

/**
 * Grid step in ms: 100 ms, coarser for long retention (at most 65,536 steps per retention)
 * or long runs (at most 2^20 steps over the expected run, its longest delays and retention).
 * The peak can be short by the records created within one step before it.
 */
export function peakGridStep(retentionMs: number, ratePerS: number, maxActions: number, longestDelayMs = 0): number {
  return Math.max(100, retentionMs / 65_536, runHorizon(retentionMs, ratePerS, maxActions, longestDelayMs) / MAX_RUN_CELLS);
}

/** The time (ms) a run's grid is expected to span: the run plus the longest an action can keep creating records after it arrives. */
export function runHorizon(retentionMs: number, ratePerS: number, maxActions: number, longestDelayMs = 0): number {
  return (maxActions * 1000) / ratePerS + longestDelayMs + retentionMs;
}

/** The grid of one run (or part of one), in plain serialisable form. */
export interface GridData {
  step: number;
  /** Cell index of diff[0]. */
  base: number;
  /** Base64 of the little-endian Int32 differences. */
  diff: string;
}

export class KeyGrid {
  private diff = new Int32Array(0);
  private base = 0;

  /**
   * `expectedCells`: cells 0 .. expectedCells - 1 are made room for at the first record, so
   * the grid is not grown (allocated, copied and paged in again) every few chunks of a long
   * run. Pages of it no record touches cost nothing.
   */
  constructor(readonly step: number, private readonly expectedCells = 0) {}

  /**
   * Adds records given as cell pairs: a record [start, end) is live at the grid instants
   * g·step with start <= g·step < end, that is cells ceil(start/step) .. ceil(end/step) - 1.
   * `lo` and `hi`: the lowest and highest cell in the list (the engine has them at no cost).
   */
  addCells(cells: Int32Array, lo: number, hi: number): void {
    if (cells.length < 2) return;
    this.reserve(lo, hi); // one reserve for the whole list (a call per record was a tenth of a chunk's summing)
    const diff = this.diff;
    const base = this.base;
    for (let r = 0; r + 1 < cells.length; r += 2) {
      diff[(cells[r] as number) - base]!++;
      diff[(cells[r + 1] as number) - base]!--;
    }
  }

  addData(data: GridData): void {
    if (data.step !== this.step) throw new RangeError(`grid steps differ: ${data.step} vs ${this.step}`);
    const bytes = Buffer.from(data.diff, 'base64');
    const other = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    if (other.length === 0) return;
    this.reserve(data.base, data.base + other.length - 1);
    for (let i = 0; i < other.length; i++) this.diff[data.base + i - this.base]! += other[i] as number;
  }

  toData(): GridData {
    let lo = 0;
    let hi = this.diff.length;
    while (lo < hi && this.diff[lo] === 0) lo++;
    while (hi > lo && this.diff[hi - 1] === 0) hi--;
    const slice = this.diff.slice(lo, hi);
    return { step: this.step, base: this.base + lo, diff: Buffer.from(slice.buffer).toString('base64') };
  }

  /** Most records live at one grid instant. */
  peak(): number {
    let live = 0;
    let peak = 0;
    for (let i = 0; i < this.diff.length; i++) {
      live += this.diff[i] as number;
      if (live > peak) peak = live;
    }
    return peak;
  }

  /** Makes cells lo..hi addressable. */
  private reserve(lo: number, hi: number): void {
    if (this.diff.length === 0) {
      this.base = lo;
      this.diff = new Int32Array(Math.max(1024, 2 * (hi - lo + 1), this.expectedCells - lo));
      return;
    }
    if (lo >= this.base && hi < this.base + this.diff.length) return;
    const newBase = Math.min(this.base, lo);
    let size = this.diff.length;
    while (newBase + size <= Math.max(hi, this.base + this.diff.length - 1)) size *= 2;
    const next = new Int32Array(size);
    next.set(this.diff, this.base - newBase);
    this.diff = next;
    this.base = newBase;
  }
}
