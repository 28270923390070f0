/**
 * `{dist: empirical, file}`: observed latencies resampled. The scenario names the file; the
 * shell reads it (`loadLatencyData` in `model/latency.ts`), so only a loaded spec, with its
 * `values`, can be run.
 */
import type { Rng } from '../../random/rng.js';
import { text } from '../params.js';
import type { LatencyForm, LatencySampler } from './form.js';

export interface EmpiricalSpec { dist: 'empirical'; file: string; values: readonly number[] }

class EmpiricalSampler implements LatencySampler {
  private readonly values: Float64Array;
  constructor(values: readonly number[]) {
    this.values = Float64Array.from(values);
  }
  sample(rng: Rng): number {
    return this.values[(rng.next() * this.values.length) | 0] as number;
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
