/**
 * peak_live_keys: the most key records live at one instant, counted on a time grid so
 * that memory stays flat however many actions run. Records arrive chunk by chunk in
 * chunk-local time with the chunk's offset; a grid instant is final once no later chunk
 * can create a record before it (every record starts at or after its chunk's start).
 */

/** Grid step (ms): fine enough to miss only the records created within one step of the peak. */
export function peakGridStep(retentionMs: number, ratePerS: number): number {
  // 100 ms, coarser only for very long retention (at most 65,536 steps per retention)
  // or very slow arrivals (at least 4 arrivals per step), which would waste grid steps.
  return Math.max(100, retentionMs / 65_536, 250 / ratePerS);
}

export class PeakTracker {
  private diff = new Int32Array(1 << 16);
  private cursor = 0; // first grid index not yet final
  private live = 0;
  private last = 0; // highest grid index touched
  peak = 0;

  constructor(private readonly step: number) {}

  /** Adds records [start, end) shifted by `offset`; instants before `watermark` become final. */
  add(start: Float64Array, end: Float64Array, n: number, offset: number, watermark: number): void {
    const step = this.step;
    for (let r = 0; r < n; r++) {
      const g0 = Math.ceil((offset + (start[r] as number)) / step);
      const g1 = Math.ceil((offset + (end[r] as number)) / step);
      if (g1 <= g0) continue; // never live at a grid instant
      if (g1 - this.cursor >= this.diff.length) this.grow(g1 - this.cursor + 1);
      const mask = this.diff.length - 1;
      this.diff[g0 & mask]!++;
      this.diff[g1 & mask]!--;
      if (g1 > this.last) this.last = g1;
    }
    this.advance(Math.ceil(watermark / step));
  }

  /** Finalises every instant; returns the peak. */
  finish(): number {
    this.advance(this.last + 1);
    return this.peak;
  }

  private advance(until: number): void {
    const mask = this.diff.length - 1;
    for (let g = this.cursor; g < until; g++) {
      this.live += this.diff[g & mask] as number;
      this.diff[g & mask] = 0;
      if (this.live > this.peak) this.peak = this.live;
    }
    if (until > this.cursor) this.cursor = until;
  }

  private grow(needed: number): void {
    let size = this.diff.length;
    while (size < needed) size *= 2;
    const next = new Int32Array(size);
    const oldMask = this.diff.length - 1;
    for (let g = this.cursor; g <= this.last; g++) next[g & (size - 1)] = this.diff[g & oldMask] as number;
    this.diff = next;
  }
}
