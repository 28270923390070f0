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

/** How a refusal of a row past the grid's cap begins (exec/input-failure.ts tells it from a bug by it). */
export const GRID_PAST = 'a key record starts later than the peak grid reaches';
/** How many times its expected cells a fixed run's grid may reach (64 MB at the most a run plans, 2^20 cells): past it a row's end is clipped (grid.ts runGrid). */
export const GRID_CAP_SHARE = 16;
const GRID_CAP_SHARE_TEXT = `${GRID_CAP_SHARE} times the run's expected span (its arrivals, its longest delays and its retention), after a latency's tail or a queue's backlog this long`;
const GRID_FIX = "Shorten service.latency's tail (a smaller sigma, a shorter value), or claim keys atomically (idempotency.claim: atomic), whose records start when the request does.";

/** Cells below the first cell the grid makes room for, its first row's or (with expected cells) its first chunk's (KeyGrid's `reserve`). */
const BASE_SLACK = 4096;

/** The grid of one run (or part of one), in plain serialisable form. */
export interface GridData {
  step: number;
  /** Cell index of diff[0]. */
  base: number;
  /** Base64 of the little-endian Int32 differences. */
  diff: string;
}

/**
 * A run's key rows on its peak grid. A row live in [start, end) is live at the grid instants
 * g·step with start <= g·step < end, cells ceil(start/step) .. ceil(end/step) - 1: +1 in the
 * first, -1 in the first not live. Rows never live at a grid instant are left out.
 *
 * The engines write each row here as they settle it (`addRow`, in ms from the chunk's start,
 * `rowsFrom`), into the run's grid itself: a list of cell pairs per chunk, summed into the grid
 * afterwards, cost the lab's intent runs a store, a pass and a scattered add per row (docs/performance.md).
 */
export class KeyGrid {
  private diff = new Int32Array(0);
  private base = 0;
  /** The inverse of the step: rows' times are multiplied by it, not divided by the step (see `addRow`). */
  private readonly perMs: number;
  /** The run time (ms) that `addRow`'s times count from: the start of the chunk being written. */
  private rowOffset = 0;

  /**
   * `expectedCells`: cells 0 .. expectedCells - 1 are made room for at the first chunk
   * (`rowsFrom`), so the grid is not grown (allocated, copied and paged in again) every few chunks
   * of a long run. Pages of it no record touches cost nothing (a run that writes no row, at scope
   * none, allocates them and reads them once at its end).
   */
  constructor(readonly step: number, private readonly expectedCells = 0, private readonly cap = Infinity) {
    this.perMs = 1 / step;
  }

  /**
   * Rows written from now on are in ms from run time `offset` (a chunk's start; 0 for run times).
   * A grid with expected cells makes its room here, at its first chunk, as its first record would:
   * addRow then grows it only for a row outside them. The engines' loops inline addRow, compiled in
   * a process's first run, whose first record grew its grid in a call that collected no type
   * feedback; every later run's first record, growing a new grid, threw those loops out.
   */
  rowsFrom(offset: number): void {
    this.rowOffset = offset;
    if (this.diff.length === 0 && this.expectedCells > 0) {
      const g = Math.ceil(offset * this.perMs);
      this.reserve(g, g);
    }
  }

  /**
   * A key row live in [start, end) (ms from `rowsFrom`'s offset), if it is live at a grid
   * instant. Times are multiplied by the step's inverse rather than divided by the step (two
   * divisions a simple group, each several multiplications' time): a row that starts or ends
   * within a rounding error of a grid instant may count at it or not. Small, so that the
   * engines' loops inline it; room is made apart.
   */
  addRow(start: number, end: number): void {
    const g0 = Math.ceil((this.rowOffset + start) * this.perMs);
    const g1 = Math.ceil((this.rowOffset + end) * this.perMs);
    if (g1 <= g0) return;
    const i0 = g0 - this.base, i1 = g1 - this.base;
    if (i0 < 0 || i1 >= this.diff.length) return this.addRowGrowing(g0, g1);
    this.diff[i0]!++;
    this.diff[i1]!--;
  }

  /**
   * Makes cells g0 .. g1 writable by an engine that writes their differences itself (count-path.ts:
   * `cells` from `cellBase`, valid until the grid next grows); false, and nothing made, when g1 is
   * past the cap, where addRow would clip a row's end.
   */
  makeRoom(g0: number, g1: number): boolean {
    if (g1 > this.cap) return false;
    this.reserve(g0, g1);
    return true;
  }

  /** The differences, cell `cellBase` first (see makeRoom). */
  get cells(): Int32Array {
    return this.diff;
  }

  get cellBase(): number {
    return this.base;
  }

  /**
   * The end of a row that ends past `cap` (a latency's tail, which grew the grid to gigabytes): the
   * cap, which leaves the peak exact while every row starts before it, since the live count rises
   * only where a row starts; a row that starts past it would not be counted, so the run is refused.
   */
  private clipped(g0: number): number {
    if (g0 >= this.cap) throw new Error(`${GRID_PAST}, ${GRID_CAP_SHARE_TEXT}: one starts ${(g0 * this.step / 3_600_000).toFixed(1)} h into the run. ${GRID_FIX}`);
    return this.cap;
  }

  /** Adds another grid's rows (a chunk written apart: exec/lane.ts). */
  addGrid(other: KeyGrid): void {
    const [lo, hi] = other.used();
    this.addDiff(other.step, other.base + lo, other.diff.subarray(lo, hi));
  }

  addData(data: GridData): void {
    const bytes = Buffer.from(data.diff, 'base64');
    this.addDiff(data.step, data.base, new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
  }

  toData(): GridData {
    const [lo, hi] = this.used();
    if (lo === hi) return { step: this.step, base: 0, diff: '' }; // no row: the same whether or not room was made
    const slice = this.diff.slice(lo, hi);
    return { step: this.step, base: this.base + lo, diff: Buffer.from(slice.buffer).toString('base64') };
  }

  /** Differences `diff` of a grid of `step`, the first at cell `base`, added to these. */
  private addDiff(step: number, base: number, diff: Int32Array): void {
    if (step !== this.step) throw new RangeError(`grid steps differ: ${step} vs ${this.step}`);
    if (diff.length === 0) return;
    this.reserve(base, base + diff.length - 1);
    const shift = base - this.base;
    for (let i = 0; i < diff.length; i++) this.diff[i + shift]! += diff[i] as number;
  }

  /** The cells [lo, hi) of `diff` from its first non-zero difference to its last (lo = hi when none). */
  private used(): [number, number] {
    let lo = 0;
    let hi = this.diff.length;
    while (lo < hi && this.diff[lo] === 0) lo++;
    while (hi > lo && this.diff[hi - 1] === 0) hi--;
    return [lo, hi];
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

  /**
   * addRow's row, cells g0 (first live) and g1 (first not live), where room is made first; its end
   * clipped at `cap`, which the grid never reaches past (`reserve`), so that every row ending past
   * it comes here, whatever room earlier rows made: the same rows are clipped on any thread.
   */
  private addRowGrowing(g0: number, g1: number): void {
    if (g1 > this.cap) g1 = this.clipped(g0);
    this.reserve(g0, g1);
    this.diff[g0 - this.base]!++;
    this.diff[g1 - this.base]!--;
  }

  /**
   * Makes cells lo..hi addressable. The first room starts up to BASE_SLACK cells below the first
   * row: a later row may start a little earlier (a shorter latency), and moving the base copies
   * the whole grid.
   */
  private reserve(lo: number, hi: number): void {
    if (this.diff.length === 0) {
      this.base = lo - Math.min(Math.max(lo, 0), BASE_SLACK);
      const size = Math.max(1024, 2 * (hi - this.base + 1), this.expectedCells - this.base);
      this.diff = new Int32Array(Math.max(hi - this.base + 1, Math.min(size, this.cap + 1 - this.base)));
      return;
    }
    if (lo >= this.base && hi < this.base + this.diff.length) return;
    const newBase = Math.min(this.base, lo);
    const needed = Math.max(hi, this.base + this.diff.length - 1) - newBase + 1;
    let size = this.diff.length;
    while (size < needed) size *= 2;
    // Never past the cap (a row's end there is clipped, addRowGrowing): the grid stays as large on every thread.
    const next = new Int32Array(Math.max(needed, Math.min(size, this.cap + 1 - newBase)));
    next.set(this.diff, this.base - newBase);
    this.diff = next;
    this.base = newBase;
  }
}
