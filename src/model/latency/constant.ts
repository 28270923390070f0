/** `{dist: constant, value}`: every latency the same. */
import { duration } from '../params.js';
import { ConstantSampler, type LatencyForm } from './form.js';

export interface ConstantSpec { dist: 'constant'; value: number }

export const constant: LatencyForm<ConstantSpec> = {
  keys: { value: duration(undefined, 'every latency') },
  required: ['value'],
  sampler: (s) => new ConstantSampler(s.value),
  mean: (s) => s.value,
};
