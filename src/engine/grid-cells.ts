/**
 * A chunk's key rows as cells of the run's peak grid (peak.ts), written as each group ends (and
 * by the fast path as it settles a simple group): a row live in [start, end) is live at the grid
 * instants g·step with start <= g·step < end, cells ceil(start/step) .. ceil(end/step) - 1, kept
 * as the pair (first live, first not live). Rows never live at a grid instant are left out.
 */

/** A chunk's rows on the peak grid. */
export interface GridCells {
  /** Key records on the run's peak grid: pairs of cells (first live, first not live). */
  cells: Int32Array;
  /** The lowest and the highest cell in `cells`, so the grid makes room at once (0 when empty). */
  cellsLow: number;
  cellsHigh: number;
}

/** The cell pairs of one chunk, in a buffer reused from chunk to chunk. */
export class CellList {
  /** Reused: a fresh 128 kB array per chunk cost page faults and garbage collection. */
  private cells = new Int32Array(2048);
  private len = 0;
  /** The chunk's start in the run's time (ms), and the inverse of the grid's step. */
  private offset = 0;
  private perMs = 1;

  /** A chunk starting at run time `offset`, on a grid of `step` ms: no cells yet. */
  begin(offset: number, step: number): void {
    this.len = 0;
    this.offset = offset;
    this.perMs = 1 / step;
  }

  /**
   * A key row live in [start, end) (ms in the chunk): its cell pair, if it is live at a grid
   * instant. Times are multiplied by the step's inverse rather than divided by the step (two
   * divisions a simple group, each several multiplications' time): a row that starts or ends
   * within a rounding error of a grid instant may count at it or not.
   */
  add(start: number, end: number): void {
    const g0 = Math.ceil((this.offset + start) * this.perMs);
    const g1 = Math.ceil((this.offset + end) * this.perMs);
    if (g1 <= g0) return;
    if (this.len + 2 > this.cells.length) this.grow(); // apart, to keep this small enough to inline
    this.cells[this.len++] = g0;
    this.cells[this.len++] = g1;
  }

  /**
   * The chunk's cells: `cells` is a view of this object's buffer, valid until the next `begin`.
   * The lowest and highest cell are found here, in one pass, rather than kept up by `add`: whether
   * a row ends past every row before it is as often so as not (latencies vary more than the gaps
   * between arrivals), a branch mispredicted; the pass costs less than 1 ns a row (6% of the lab's
   * chunk time went).
   */
  view(): GridCells {
    const cells = this.cells.subarray(0, this.len);
    let low = 0, high = 0;
    if (this.len > 0) {
      low = Infinity; high = -Infinity;
      for (let r = 0; r < cells.length; r += 2) {
        low = Math.min(low, cells[r] as number);
        high = Math.max(high, cells[r + 1] as number);
      }
    }
    return { cells, cellsLow: low, cellsHigh: high };
  }

  private grow(): void {
    const next = new Int32Array(2 * this.cells.length);
    next.set(this.cells);
    this.cells = next;
  }
}
