/**
 * `{dist: empirical, file}`: observed latencies resampled. The scenario names the file; the
 * shell reads it (`loadLatencyData` in `model/latency.ts`), so only a loaded spec, with its
 * `values`, can be run.
 */
import type { Rng } from '../../random/rng.js';
import { text } from '../params.js';
import type { LatencyCut, LatencyForm, LatencySampler } from './form.js';
import { nextUp } from './next-up.js';

export interface EmpiricalSpec { dist: 'empirical'; file: string; values: readonly number[] }

class EmpiricalSampler implements LatencySampler {
  private readonly values: Float64Array;
  constructor(values: readonly number[]) {
    this.values = Float64Array.from(values);
  }
  sample(rng: Rng): number {
    return this.values[(rng.next() * this.values.length) | 0] as number;
  }
  cut(at: number): LatencyCut {
    return new EmpiricalCut(Float64Array.from(this.values).sort(), at);
  }
}

/**
 * Observed values split at `at`: the k of them at most `at` (the first k once sorted) and the
 * rest, each value drawn with the same chance within its side.
 */
class EmpiricalCut implements LatencyCut {
  readonly pBelow: number;
  readonly pAbove: number;
  private readonly count: number;
  private readonly justAbove: number;
  constructor(private readonly sorted: Float64Array, private readonly at: number) {
    let lo = 0, hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as number) <= at) lo = mid + 1; else hi = mid;
    }
    this.count = lo;
    this.pBelow = lo / sorted.length;
    this.pAbove = (sorted.length - lo) / sorted.length;
    this.justAbove = nextUp(at);
  }
  /** A side with no value (never drawn) answers with the nearest value it may hold. */
  belowQuick(): number {
    return NaN; // no table: every draw through below
  }
  quickBetween(): boolean {
    return false;
  }

  readonly smooth = false;
  belowCdf(): number {
    return NaN; // belowExact is bisected
  }
  belowExact(v: number): number {
    return this.below(v); // exact already
  }
  below(v: number): number {
    const k = this.count;
    return k > 0 ? this.sorted[Math.min(k - 1, (v * k) | 0)] as number : this.at;
  }
  above(v: number): number {
    const rest = this.sorted.length - this.count;
    return rest > 0 ? this.sorted[this.count + Math.min(rest - 1, (v * rest) | 0)] as number : this.justAbove;
  }
}

export const empirical: LatencyForm<EmpiricalSpec> = {
  keys: { file: text('a path, relative to the scenario file, of observed latencies in ms, one per line') },
  required: ['file'],
  sampler: (s) => {
    // The loader refuses an empty file; this guards a spec built by hand.
    if (s.values.length === 0) throw new RangeError(`empirical latency file ${s.file} holds no values`);
    return new EmpiricalSampler(s.values);
  },
  // Each value drawn with the same chance; NaN while the file is not read.
  mean: (s) => (s.values === undefined || s.values.length === 0 ? NaN : s.values.reduce((sum, v) => sum + v, 0) / s.values.length),
};
