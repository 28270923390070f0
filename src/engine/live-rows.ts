/**
 * The intervals in which a group's key records are live, for peak_live_keys (docs/model.md),
 * until the group ends and they become rows of the run's peak grid (peak.ts). A key is
 * one row (docs/model.md v2): a record that overlaps a row of the same key in the group extends
 * that row instead of adding one, and a row it then overlaps too is absorbed, so overlapping
 * writes make one row from the first write to the last expiry. Each row belongs to the action
 * whose write began it, for keys_per_action (rows per action).
 * Typed arrays owned by one simulator (the coupled engine: one per group in flight), reused.
 */
import type { KeyGrid } from './peak.js';

export class LiveRows {
  private start: Float64Array;
  private end: Float64Array;
  private key: Int32Array;
  /** The group's action (0 or 1: the primary or its twin) whose write began each row. */
  private owner: Uint8Array;
  private len = 0;

  /**
   * `size`: room for this many rows before it grows (the coupled engine keeps one per group in
   * flight, and allocates nothing more: 30 KB of defaults thrown away per group was half a
   * gigabyte of garbage at its limit of actions in flight).
   */
  constructor(size = 16) {
    this.start = new Float64Array(size); this.end = new Float64Array(size);
    this.key = new Int32Array(size); this.owner = new Uint8Array(size);
  }

  /** The group is over: each row goes to `grid`, and this is empty for the next. */
  flushTo(grid: KeyGrid): void {
    for (let r = 0; r < this.len; r++) grid.addRow(this.start[r] as number, this.end[r] as number);
    this.len = 0;
  }

  /** Forgets every row (a new group). */
  clear(): void {
    this.len = 0;
  }

  /** A record of `key`, written by action `owner` of the group, lives in [start, end) (ms in the chunk). */
  record(key: number, start: number, end: number, owner: number): void {
    if (key >= 0) {
      for (let j = 0; j < this.len; j++) {
        if (this.key[j] === key && start < (this.end[j] as number) && (this.start[j] as number) < end) {
          if (start < (this.start[j] as number)) this.start[j] = start;
          if (end > (this.end[j] as number)) this.end[j] = end;
          this.absorbInto(j);
          return;
        }
      }
    }
    if (this.len === this.start.length) this.grow(); // apart, to keep this small enough to inline
    this.start[this.len] = start;
    this.end[this.len] = end;
    this.owner[this.len] = owner;
    this.key[this.len++] = key;
  }

  /** Rows of the group that action `owner` began. */
  owned(owner: number): number {
    let n = 0;
    for (let j = 0; j < this.len; j++) if (this.owner[j] === owner) n++;
    return n;
  }

  /** Row `j` grew: the other rows of its key it now overlaps become part of it (rare: a write bridging two rows). */
  private absorbInto(j: number): void {
    const key = this.key[j] as number;
    for (let r = 0; r < this.len; r++) {
      if (r === j || this.key[r] !== key || !((this.start[r] as number) < (this.end[j] as number) && (this.start[j] as number) < (this.end[r] as number))) continue;
      if ((this.start[r] as number) < (this.start[j] as number)) { this.start[j] = this.start[r] as number; this.owner[j] = this.owner[r] as number; }
      if ((this.end[r] as number) > (this.end[j] as number)) this.end[j] = this.end[r] as number;
      // Row r goes: the last row takes its place (rows have no order).
      const last = --this.len;
      this.start[r] = this.start[last] as number; this.end[r] = this.end[last] as number;
      this.key[r] = this.key[last] as number; this.owner[r] = this.owner[last] as number;
      if (j === last) j = r;
      r = -1; // start over: the grown row may now reach others
    }
  }

  private grow(): void {
    const n = this.len * 2;
    const a = new Float64Array(n); a.set(this.start); this.start = a;
    const b = new Float64Array(n); b.set(this.end); this.end = b;
    const c = new Int32Array(n); c.set(this.key); this.key = c;
    const o = new Uint8Array(n); o.set(this.owner); this.owner = o;
  }
}
