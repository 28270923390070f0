/**
 * The intervals in which a chunk's key records are live, for peak_live_keys (docs/model.md),
 * and their cells on the run's peak grid (peak.ts). A key is one row: a record that overlaps
 * an earlier one of the same key in the same group extends that row instead of adding one.
 * Typed arrays owned by one simulator, reused from chunk to chunk.
 */

/** A chunk's rows on the peak grid. */
export interface GridCells {
  /**
   * Key records on the run's peak grid (see peak.ts): pairs of cells (first live, first not
   * live), records that are never live at a grid instant left out.
   */
  cells: Int32Array;
  /** The lowest and the highest cell in `cells`, so the grid makes room at once (0 when empty). */
  cellsLow: number;
  cellsHigh: number;
}

export class LiveRows {
  private start = new Float64Array(1024);
  private end = new Float64Array(1024);
  private key = new Int32Array(1024);
  private len = 0;
  /** First row of the current group: keys are local to a group. */
  private groupStart = 0;
  /** The chunk's grid cells (reused: a fresh 128 kB array per chunk cost page faults and GC) and their range. */
  private cells = new Int32Array(2048);
  private readonly cellRange = new Int32Array(2);

  /** Forgets every row (a new chunk). */
  clear(): void {
    this.len = 0;
  }

  /** Rows from here on belong to a new group. */
  beginGroup(): void {
    this.groupStart = this.len;
  }

  /** A record of `key` lives in [start, end) (ms in the chunk); merged into an overlapping row of its key in this group. */
  record(key: number, start: number, end: number): void {
    if (key >= 0) {
      for (let j = this.groupStart; j < this.len; j++) {
        if (this.key[j] === key && start < (this.end[j] as number) && (this.start[j] as number) < end) {
          if (start < (this.start[j] as number)) this.start[j] = start;
          if (end > (this.end[j] as number)) this.end[j] = end;
          return;
        }
      }
    }
    this.append(key, start, end);
  }

  /** A row of its own, for a record nothing will merge with. */
  append(key: number, start: number, end: number): void {
    if (this.len === this.start.length) this.grow(); // apart, to keep this small enough to inline
    this.start[this.len] = start;
    this.end[this.len] = end;
    this.key[this.len++] = key;
  }

  /**
   * The chunk's rows as grid cell pairs, for a chunk starting at `offset` on a grid of `step`
   * ms; `cells` is a view of this object's buffer, valid until the next call.
   */
  gridCells(offset: number, step: number): GridCells {
    if (this.cells.length < 2 * this.len) this.cells = new Int32Array(4 * this.len);
    // The loop apart: compiled on the stack while it runs (OSR) before the first `subarray`
    // had type feedback, the loop's code deoptimised at it at the end of every chunk.
    const m = fillCells(this.cells, this.cellRange, this.start, this.end, this.len, offset, step);
    return { cells: this.cells.subarray(0, m), cellsLow: this.cellRange[0] as number, cellsHigh: this.cellRange[1] as number };
  }

  private grow(): void {
    const n = this.len * 2;
    const a = new Float64Array(n); a.set(this.start); this.start = a;
    const b = new Float64Array(n); b.set(this.end); this.end = b;
    const c = new Int32Array(n); c.set(this.key); this.key = c;
  }
}

/**
 * Writes the cell pairs of rows live at some grid instant of a chunk starting at `offset`;
 * returns how many numbers it wrote, and their lowest and highest in `range`.
 */
function fillCells(cells: Int32Array, range: Int32Array, start: Float64Array, end: Float64Array, n: number, offset: number, step: number): number {
  let m = 0;
  let low = Infinity, high = -Infinity;
  for (let r = 0; r < n; r++) {
    const g0 = Math.ceil((offset + (start[r] as number)) / step);
    const g1 = Math.ceil((offset + (end[r] as number)) / step);
    if (g1 <= g0) continue; // never live at a grid instant
    if (g0 < low) low = g0;
    if (g1 > high) high = g1;
    cells[m++] = g0;
    cells[m++] = g1;
  }
  range[0] = m > 0 ? low : 0;
  range[1] = m > 0 ? high : 0;
  return m;
}
