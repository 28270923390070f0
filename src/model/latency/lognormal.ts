/**
 * The default form: lognormal(ln(median), sigma), written `{median, sigma}` (`dist` may be left
 * out), or as engineers quote latencies: any two of p50 (or median), p90, p95, p99 and p999, or
 * the mean and one of them, fitted exactly.
 */
import { normal } from '../../random/normal.js';
import type { Rng } from '../../random/rng.js';
import { MAX_SIGMA } from '../limits.js';
import { duration, positiveDuration, real } from '../params.js';
import { ConstantSampler, type LatencyForm, type LatencyProblem, type LatencySampler } from './form.js';
import { nextUp } from './next-up.js';
import { lowerTail, normalQuantile, upperTail } from './normal-tails.js';
import { TableCut, type Side } from './table.js';

export interface LognormalSpec {
  dist: 'lognormal';
  median: number;
  sigma: number;
  /** The percentiles (and mean) in ms the distribution was fitted to, as written; absent when median and sigma were given. */
  fitted_to?: Record<string, number>;
}

class LognormalSampler implements LatencySampler {
  private readonly mu: number;
  constructor(private readonly median: number, private readonly sigma: number) {
    this.mu = Math.log(median);
  }
  sample(rng: Rng): number {
    return Math.exp(this.mu + this.sigma * normal(rng));
  }
  cut(at: number): TableCut {
    return lognormalCut(this.median, this.sigma, at);
  }
}

/**
 * The lognormal split at `at` ms: each side's chance from its own tail of the normal, and its
 * exact conditional quantile and CDF for the table (`table.ts`). A side's quantile at q is the
 * normal's at the two tails q gives it, each computed directly.
 */
export function lognormalCut(median: number, sigma: number, at: number): TableCut {
  const standard = (x: number): number => Math.log(x / median) / sigma;
  const value = (z: number): number => median * Math.exp(sigma * z);
  const pBelow = lowerTail(standard(at)), pAbove = upperTail(standard(at));
  const justAbove = nextUp(at);
  // q = 1 is read as the largest double below 1, 1 - 2^-53, so that a draw stays finite (at = Infinity below).
  const lower: Side = {
    quantile: (q) => Math.min(at, value(normalQuantile(q * pBelow, Math.max(1 - q, 2 ** -53) * pBelow + pAbove))),
    cdf: (x) => lowerTail(standard(x)) / pBelow,
  };
  const upper: Side = {
    quantile: (q) => Math.max(justAbove, Math.min(Number.MAX_VALUE, value(normalQuantile(pBelow + q * pAbove, Math.max(1 - q, 2 ** -53) * pAbove)))),
    cdf: (x) => 1 - upperTail(standard(x)) / pAbove,
  };
  return new TableCut(pBelow, pAbove, lower, upper);
}

/** Standard normal quantiles of the percentiles a file may give (Φ⁻¹(q), to double precision). */
export const Z: Readonly<Record<string, number>> = {
  p50: 0, median: 0, p90: 1.2815515655446004, p95: 1.6448536269514722, p99: 2.3263478740408408, p999: 3.090232306167813,
};
const PERCENTILES = ['p50', 'p90', 'p95', 'p99', 'p999'] as const;
const FORMS_HINT = 'Give either {median, sigma}, or exactly two of p50 (or median), p90, p95, p99, p999 and mean, such as {p50: 450ms, p99: 3s}.';

/** The lognormal through what was written, or what is wrong with it. */
function fit(written: Readonly<Record<string, number>>): LognormalSpec | LatencyProblem {
  const keys = Object.keys(written);
  const problem = (key: string, text: string, fix = FORMS_HINT): LatencyProblem => ({ key, problem: text, fix });
  if ('sigma' in written) return problem('sigma', 'sigma is given with percentiles, which fix it themselves');
  if ('median' in written && 'p50' in written) return problem('p50', 'median and p50 are the same percentile, given twice');
  if (keys.length !== 2) {
    return problem(keys[keys.length - 1] as string, keys.length === 1 ? `only ${keys[0]} is given, but a lognormal needs two points`
      : `${keys.length} points are given (${keys.join(', ')}), but a lognormal has two parameters`);
  }
  const [a, b] = keys.filter((k) => k !== 'mean').sort((x, y) => (Z[x] as number) - (Z[y] as number)) as [string, string | undefined];
  for (const k of keys) if (!((written[k] as number) > 0)) return problem(k, `${k} is 0, but a lognormal has no mass at 0`, 'Give it above 0, or use {dist: constant, value: 0}.');
  const qa = written[a] as number, za = Z[a] as number;
  let sigma: number;
  if (b !== undefined) {
    const qb = written[b] as number;
    if (!(qb > qa)) return problem(b, `${b} (${qb}ms) is not above ${a} (${qa}ms)`, `Make ${b} larger than ${a}: a higher percentile is a longer latency.`);
    sigma = (Math.log(qb) - Math.log(qa)) / ((Z[b] as number) - za);
  } else {
    // mean = exp(mu + sigma^2/2), q = exp(mu + z sigma): sigma^2/2 - z sigma - ln(mean/q) = 0.
    const d = za * za + 2 * Math.log((written['mean'] as number) / qa);
    // Two roots, z ± sqrt(d); where both are >= 0 (the mean below a high percentile) the smaller,
    // the lighter tail, is taken.
    const roots = d < 0 ? [] : [za - Math.sqrt(d), za + Math.sqrt(d)].filter((r) => r >= 0);
    if (roots.length === 0) {
      return problem('mean', `no lognormal has this mean (${written['mean']}ms) and ${a} (${qa}ms)`,
        'A lognormal\'s mean is at least its median and not far below a high percentile: check both, or give two percentiles instead.');
    }
    sigma = roots[0] as number;
  }
  if (!(sigma <= MAX_SIGMA)) return problem(b ?? 'mean', `the fit needs sigma ${sigma.toPrecision(3)}, above ${MAX_SIGMA}`, 'Check the units of the percentiles: they are that far apart only by mistake.');
  // A given median is kept exactly (exp(log(450)) is 449.99999999999994).
  return { dist: 'lognormal', median: za === 0 ? qa : Math.exp(Math.log(qa) - za * sigma), sigma, fitted_to: { ...written } };
}

export const lognormal: LatencyForm<LognormalSpec> = {
  keys: {
    median: positiveDuration(300, 'median latency'),
    sigma: real(0.6, 0, MAX_SIGMA, `a number from 0 to ${MAX_SIGMA} (log-standard deviation)`),
  },
  required: [],
  fit: {
    keys: {
      ...Object.fromEntries(PERCENTILES.map((p) => [p, duration(undefined, `${p.slice(1, 3)}${p.length > 3 ? '.9' : ''}th percentile latency, fitted with one other point`)])),
      mean: duration(undefined, 'mean latency, fitted with one percentile'),
    },
    from: fit,
  },
  check: (s) => (s.median > 0 ? undefined : {
    key: 'median', problem: 'the median latency is 0',
    fix: 'Give a median above 0 (a lognormal has no mass at 0), or use {dist: constant, value: 0}.',
  }),
  // sigma 0 gives the median exactly, not exp(log(median)).
  sampler: (s) => (s.sigma === 0 ? new ConstantSampler(s.median) : new LognormalSampler(s.median, s.sigma)),
  // median·e^{σ²/2}: 359 ms for the lab's 300 ms and 0.6, not 300.
  mean: (s) => s.median * Math.exp((s.sigma * s.sigma) / 2),
};
