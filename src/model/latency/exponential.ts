/** `{dist: exponential, mean}`: memoryless latencies. */
import { exponential as draw } from '../../random/exponential.js';
import type { Rng } from '../../random/rng.js';
import { duration } from '../params.js';
import { ConstantSampler, type LatencyCut, type LatencyForm, type LatencySampler } from './form.js';
import { nextUp } from './next-up.js';
import { TableCut, type Side } from './table.js';

export interface ExponentialSpec { dist: 'exponential'; mean: number }

class ExponentialSampler implements LatencySampler {
  constructor(private readonly mean: number) {}
  sample(rng: Rng): number {
    return draw(rng, this.mean);
  }
  cut(at: number): LatencyCut {
    // A mean of 0 draws 0 every time.
    return this.mean > 0 ? exponentialCut(this.mean, at) : new ConstantSampler(0).cut(at);
  }
}

/**
 * The exponential split at `at` ms: P(L <= at) = 1 - e^(-at/mean) by expm1 and P(L > at) =
 * e^(-at/mean), each directly; below, the quantile from whichever of q·P(L <= at) and the rest is
 * the smaller (by log1p or log); above, `at` plus an exponential, the distribution having no memory.
 */
export function exponentialCut(mean: number, at: number): TableCut {
  const pBelow = -Math.expm1(-at / mean), pAbove = Math.exp(-at / mean);
  const justAbove = nextUp(at);
  // q = 1 is read as the largest double below 1, 1 - 2^-53, so that a draw stays finite (at = Infinity below).
  const lower: Side = {
    quantile: (q) => Math.min(at, q * pBelow <= 0.5 ? -mean * Math.log1p(-q * pBelow) : -mean * Math.log(Math.max(1 - q, 2 ** -53) * pBelow + pAbove)),
    cdf: (x) => -Math.expm1(-x / mean) / pBelow,
  };
  const upper: Side = {
    quantile: (q) => Math.max(justAbove, Math.min(Number.MAX_VALUE, at + mean * (q <= 0.5 ? -Math.log1p(-q) : -Math.log(Math.max(1 - q, 2 ** -53))))),
    cdf: (x) => -Math.expm1(-(x - at) / mean),
  };
  return new TableCut(pBelow, pAbove, lower, upper);
}

export const exponential: LatencyForm<ExponentialSpec> = {
  keys: { mean: duration(undefined, 'mean latency') },
  required: ['mean'],
  sampler: (s) => new ExponentialSampler(s.mean),
  mean: (s) => s.mean,
};
