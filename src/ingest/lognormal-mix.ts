/**
 * The distributions `fit` fits, over latencies in ms: a share of exact zeros, and the rest a
 * mixture of lognormals (one component, or two). And the observations as counts in intervals,
 * which is how a histogram holds them and how a fit's likelihood and its goodness read them.
 */
import { between, phi } from './stats.js';

/** One lognormal component: its weight (a fit's weights sum to 1), mu = ln(its median in ms) and sigma. */
export interface Component { readonly weight: number; readonly mu: number; readonly sigma: number }

/** A fitted latency: the share of observations at exactly 0 ms, and the distribution of the others. */
export interface Fitted { readonly zero: number; readonly components: readonly Component[] }

/**
 * Observations above 0 ms as counts in consecutive intervals (lo, hi] of ln(ms): the first's lo
 * may be -Infinity (from 0 ms), the last's hi Infinity (a histogram's +Inf bucket).
 */
export interface Bins { readonly lo: readonly number[]; readonly hi: readonly number[]; readonly count: readonly number[] }

/** How many observations the bins hold. */
export const binsTotal = (b: Bins): number => b.count.reduce((s, c) => s + c, 0);

/** Each bin's probability under the components: Σ weight (Φ((hi - mu) / sigma) - Φ((lo - mu) / sigma)). */
export function binProbabilities(components: readonly Component[], bins: Bins): number[] {
  return bins.lo.map((lo, i) => {
    const hi = bins.hi[i] as number;
    return components.reduce((s, c) => s + c.weight * between((lo - c.mu) / c.sigma, (hi - c.mu) / c.sigma), 0);
  });
}

/** The smallest probability a bin is given in a log-likelihood: a bin the components miss costs ln(1e-300), not -Infinity. */
const FLOOR = 1e-300;

/** Σ count ln(probability) over the bins that hold observations: the log-likelihood of interval-censored data. */
export function logLikelihood(components: readonly Component[], bins: Bins): number {
  const p = binProbabilities(components, bins);
  return bins.count.reduce((s, n, i) => (n > 0 ? s + n * Math.log(Math.max(FLOOR, p[i] as number)) : s), 0);
}

/** The share of the fitted latency above `ms`. */
export function fittedShareAbove(f: Fitted, ms: number): number {
  if (ms < 0) return 1;
  if (ms === 0) return 1 - f.zero;
  const x = Math.log(ms);
  return (1 - f.zero) * f.components.reduce((s, c) => s + c.weight * phi((c.mu - x) / c.sigma), 0);
}

/** The p-quantile of the fitted latency in ms (0 where the zeros reach p): bisection on ln(ms), to a relative 1e-12. */
export function fittedQuantile(f: Fitted, p: number): number {
  if (p <= f.zero) return 0;
  const q = Math.min(1, (p - f.zero) / (1 - f.zero));
  const below = (x: number): number => f.components.reduce((s, c) => s + c.weight * phi((x - c.mu) / c.sigma), 0);
  let lo = Math.min(...f.components.map((c) => c.mu - 40 * c.sigma)), hi = Math.max(...f.components.map((c) => c.mu + 40 * c.sigma));
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (below(mid) < q) lo = mid; else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}
