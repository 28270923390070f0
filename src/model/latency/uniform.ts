/** `{dist: uniform, min, max}`: every latency in [min, max] equally likely. */
import type { Rng } from '../../random/rng.js';
import { duration } from '../params.js';
import type { LatencyForm, LatencySampler } from './form.js';

export interface UniformSpec { dist: 'uniform'; min: number; max: number }

class UniformSampler implements LatencySampler {
  private readonly width: number;
  constructor(private readonly min: number, max: number) {
    this.width = max - min;
  }
  sample(rng: Rng): number {
    return this.min + this.width * rng.next();
  }
}

export const uniform: LatencyForm<UniformSpec> = {
  keys: { min: duration(undefined, 'shortest latency'), max: duration(undefined, 'longest latency') },
  required: ['min', 'max'],
  check: (s) => (s.min <= s.max ? undefined : { key: 'max', problem: `max (${s.max}ms) is below min (${s.min}ms)`, fix: 'Make max at least min.' }),
  sampler: (s) => new UniformSampler(s.min, s.max),
  mean: (s) => (s.min + s.max) / 2,
};
