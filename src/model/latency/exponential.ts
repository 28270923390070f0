/** `{dist: exponential, mean}`: memoryless latencies. */
import { exponential as draw } from '../../random/exponential.js';
import type { Rng } from '../../random/rng.js';
import { duration } from '../params.js';
import type { LatencyForm, LatencySampler } from './form.js';

export interface ExponentialSpec { dist: 'exponential'; mean: number }

class ExponentialSampler implements LatencySampler {
  constructor(private readonly mean: number) {}
  sample(rng: Rng): number {
    return draw(rng, this.mean);
  }
}

export const exponential: LatencyForm<ExponentialSpec> = {
  keys: { mean: duration(undefined, 'mean latency') },
  required: ['mean'],
  sampler: (s) => new ExponentialSampler(s.mean),
  mean: (s) => s.mean,
};
