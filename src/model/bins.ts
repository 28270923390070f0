/**
 * Latency histogram on the bins of a DDSketch (relative accuracy 0.5%): the hot loop only
 * counts values into the sketch's own bins (one log per value, no objects), and a DDSketch
 * is built from the counts when quantiles are asked for. Counts are integers, so bins from
 * chunks, threads or shards add up to the same numbers in any order.
 */
import { DDSketch } from '@datadog/sketches-js';

/** Relative accuracy of reported quantiles; docs/model.md allows 1%. */
export const SKETCH_RELATIVE_ACCURACY = 0.005;

const MAPPING = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY }).mapping;
// The logarithmic mapping's key is ceil(log2(value) * _multiplier) + _offset (KeyMapping.key
// with LogarithmicMapping._logGamma); written out in binKey so the hot loop can inline it.
// A test checks that the two agree on every bin.
const { _multiplier: MULTIPLIER, _offset: KEY_OFFSET } = MAPPING as unknown as { _multiplier: number; _offset: number };
const MIN_VALUE = MAPPING.minPossible;

/** The bins of one latency metric, in plain serialisable form. */
export interface BinsData {
  /** Key of counts[0]. */
  offset: number;
  counts: number[];
  /** Values too small for a bin (0 ms). */
  zero: number;
}

/** The key of values too small for a bin (0 ms). */
export const ZERO_KEY = -(2 ** 31);

/** The sketch bin of a value: the same key as the library's mapping, without a call. */
export function binKey(value: number): number {
  return value > MIN_VALUE ? Math.ceil(Math.log2(value) * MULTIPLIER) + KEY_OFFSET : ZERO_KEY;
}

export class LatencyBins {
  private counts = new Float64Array(512);
  private offset = 0;
  private used = false;
  zero = 0;

  add(value: number): void {
    if (value > MIN_VALUE) this.addKey(MAPPING.key(value), 1);
    else this.zero++;
  }

  /** Adds the keys from `binKey` of n values. */
  addKeys(keys: Int32Array, n: number): void {
    for (let k = 0; k < n; k++) {
      const key = keys[k] as number;
      if (key === ZERO_KEY) { this.zero++; continue; }
      const i = key - this.offset;
      if (this.used && i >= 0 && i < this.counts.length) this.counts[i]!++;
      else this.addKey(key, 1);
    }
  }

  private addKey(key: number, count: number): void {
    let i = key - this.offset;
    if (!this.used) {
      this.used = true;
      this.offset = key - 256;
      i = 256;
    } else if (i < 0 || i >= this.counts.length) {
      i = this.grow(key);
    }
    this.counts[i] = (this.counts[i] as number) + count;
  }

  get count(): number {
    let n = this.zero;
    for (let i = 0; i < this.counts.length; i++) n += this.counts[i] as number;
    return n;
  }

  addData(data: BinsData): void {
    this.zero += data.zero;
    data.counts.forEach((c, j) => { if (c > 0) this.addKey(data.offset + j, c); });
  }

  toData(): BinsData {
    let lo = 0;
    let hi = this.counts.length;
    while (lo < hi && this.counts[lo] === 0) lo++;
    while (hi > lo && this.counts[hi - 1] === 0) hi--;
    return { offset: this.offset + lo, counts: Array.from(this.counts.subarray(lo, hi)), zero: this.zero };
  }

  /** The q-quantile (DDSketch's rank convention), or null when empty. */
  quantile(q: number): number | null {
    const sketch = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY });
    for (let i = 0; i < this.counts.length; i++) {
      const c = this.counts[i] as number;
      if (c > 0) sketch.store.add(this.offset + i, c);
    }
    sketch.zeroCount = this.zero;
    sketch.count = sketch.store.count + this.zero;
    return sketch.count === 0 ? null : sketch.getValueAtQuantile(q);
  }

  private grow(key: number): number {
    const lo = Math.min(this.offset, key - 64);
    const hi = Math.max(this.offset + this.counts.length, key + 64);
    let size = this.counts.length;
    while (size < hi - lo) size *= 2;
    const next = new Float64Array(size);
    next.set(this.counts, this.offset - lo);
    this.counts = next;
    this.offset = lo;
    return key - lo;
  }
}
