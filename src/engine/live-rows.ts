/**
 * The intervals in which a chunk's key records are live, for peak_live_keys (docs/model.md),
 * and their cells on the run's peak grid (peak.ts). A key is one row (docs/model.md v2): a
 * record that overlaps a row of the same key in the same group extends that row instead of
 * adding one, and a row it then overlaps too is absorbed, so overlapping writes make one row from
 * the first write to the last expiry. Each row belongs to the action whose write began it, for
 * keys_per_action (rows per action).
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
  private start: Float64Array;
  private end: Float64Array;
  private key: Int32Array;
  /** The group's action (0 or 1: the primary or its twin) whose write began each row. */
  private owner: Uint8Array;
  private len = 0;
  /** First row of the current group: keys are local to a group. */
  private groupStart = 0;
  /** The chunk's grid cells (reused: a fresh 128 kB array per chunk cost page faults and GC) and their range. */
  private cells: Int32Array;
  private readonly cellRange = new Int32Array(2);

  /**
   * `size`: room for this many rows before it grows (the coupled engine keeps one per group in
   * flight, rows only, and allocates nothing more: 30 KB of defaults thrown away per group was
   * half a gigabyte of garbage at its limit of actions in flight).
   */
  constructor(size?: number) {
    const n = size ?? 1024;
    this.start = new Float64Array(n); this.end = new Float64Array(n);
    this.key = new Int32Array(n); this.owner = new Uint8Array(n); this.cells = new Int32Array(size === undefined ? 2048 : 0);
  }

  /** Moves every row here into `to` as one group's (the coupled engine, when a group ends), leaving this empty. */
  moveTo(to: LiveRows): void {
    to.beginGroup();
    for (let r = 0; r < this.len; r++) to.append(this.key[r] as number, this.start[r] as number, this.end[r] as number, this.owner[r] as number);
    this.len = 0;
  }

  /** Forgets every row (a new chunk). */
  clear(): void {
    this.len = 0;
  }

  /** Rows from here on belong to a new group. */
  beginGroup(): void {
    this.groupStart = this.len;
  }

  /** A record of `key`, written by action `owner` of the group, lives in [start, end) (ms in the chunk). */
  record(key: number, start: number, end: number, owner: number): void {
    if (key >= 0) {
      for (let j = this.groupStart; j < this.len; j++) {
        if (this.key[j] === key && start < (this.end[j] as number) && (this.start[j] as number) < end) {
          if (start < (this.start[j] as number)) this.start[j] = start;
          if (end > (this.end[j] as number)) this.end[j] = end;
          this.absorbInto(j);
          return;
        }
      }
    }
    this.append(key, start, end, owner);
  }

  /** A row of its own, for a record nothing will merge with. */
  append(key: number, start: number, end: number, owner = 0): void {
    if (this.len === this.start.length) this.grow(); // apart, to keep this small enough to inline
    this.start[this.len] = start;
    this.end[this.len] = end;
    this.owner[this.len] = owner;
    this.key[this.len++] = key;
  }

  /** Rows of the current group that action `owner` began. */
  owned(owner: number): number {
    let n = 0;
    for (let j = this.groupStart; j < this.len; j++) if (this.owner[j] === owner) n++;
    return n;
  }

  /** Row `j` grew: the other rows of its key it now overlaps become part of it (rare: a write bridging two rows). */
  private absorbInto(j: number): void {
    const key = this.key[j] as number;
    for (let r = this.groupStart; r < this.len; r++) {
      if (r === j || this.key[r] !== key || !((this.start[r] as number) < (this.end[j] as number) && (this.start[j] as number) < (this.end[r] as number))) continue;
      if ((this.start[r] as number) < (this.start[j] as number)) { this.start[j] = this.start[r] as number; this.owner[j] = this.owner[r] as number; }
      if ((this.end[r] as number) > (this.end[j] as number)) this.end[j] = this.end[r] as number;
      // Row r goes: the last row takes its place (rows have no order).
      const last = --this.len;
      this.start[r] = this.start[last] as number; this.end[r] = this.end[last] as number;
      this.key[r] = this.key[last] as number; this.owner[r] = this.owner[last] as number;
      if (j === last) j = r;
      r = this.groupStart - 1; // start over: the grown row may now reach others
    }
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
    const o = new Uint8Array(n); o.set(this.owner); this.owner = o;
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
