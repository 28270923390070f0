/**
 * What `fit` computes from observations: the lognormal of greatest likelihood for them and the
 * mixture of two, each with its goodness on the buckets (censored-fit.ts), the one the data
 * choose, and the advice it gives: the healthy p99, and for a few client timeouts the share of
 * attempts that would end unknown (their latency over the timeout: docs/model.md, an attempt's
 * steps), beside the same figures as the data's own reading gives them (Prometheus's
 * histogram_quantile for a histogram, the durations themselves).
 */
import { MAX_DURATION_MS, MAX_SIGMA } from '../model/limits.js';
import { durationsMle, goodness, lognormalMle, mixtureMle, noLognormalMle, type Goodness } from './censored-fit.js';
import { binsOf, round3, type Binned } from './fit-buckets.js';
import { fittedQuantile, fittedShareAbove, logLikelihood, type Component, type Fitted } from './lognormal-mix.js';
import { beyondEveryBound, highestBound, quantileOf, shareAbove, type Observations } from './observations.js';
import { chiSquareAbove } from './stats.js';

/**
 * A lognormal: its median in ms (3 significant digits) and sigma (3 decimals) as printed, the
 * values fitted (`fitted`: its goodness, the likelihood ratio, the choice and the advice are
 * computed with them, never with the rounded ones), and its goodness.
 */
export interface LognormalFit { readonly median: number; readonly sigma: number; readonly fitted: readonly Component[]; readonly goodness: Goodness }

/**
 * A mixture of two lognormals as printed (weights to 3 significant digits), the faster first, the
 * values fitted, its goodness at them, and the likelihood ratio against the lognormal: 2 (ln
 * L(mixture) - ln L(lognormal)) on the same buckets at the fitted values (never negative: the
 * mixture nests the lognormal), and its p-value read on chi-square with 3 degrees of freedom (the
 * parameters the mixture adds; an approximation, as one lognormal is the edge of the mixtures, not
 * inside them).
 */
export interface MixtureFit {
  readonly components: readonly { readonly weight: number; readonly median: number; readonly sigma: number }[];
  readonly fitted: readonly Component[];
  readonly goodness: Goodness;
  readonly ratio: { readonly statistic: number; readonly p: number };
}

/** A fit rejected at this p-value or below does not describe the buckets within their sampling error. */
export const REJECTED_AT = 0.01;
export const rejected = (g: Goodness): boolean => g.p !== undefined && g.p < REJECTED_AT;

/**
 * Everything fitted: the share at 0 ms, the lognormal, the mixture, and the one chosen (mixtureChosen).
 */
export interface Fits {
  /** The share of observations at exactly 0 ms, which a lognormal cannot take: the fits describe the others. */
  readonly zero: number;
  readonly binned: Binned;
  readonly lognormal: LognormalFit | { problem: string };
  readonly mixture: MixtureFit | { problem: string };
  readonly chosen: 'lognormal' | 'mixture' | undefined;
}

/** A median and sigma as printed. */
const printed = (mu: number, sigma: number) => ({ median: Math.min(MAX_DURATION_MS, round3(Math.exp(mu))), sigma: Math.min(MAX_SIGMA, +sigma.toFixed(3)) });

/** The observations above 0 ms, or why no lognormal fits them. */
function noLognormal(o: Observations, b: Binned): string | undefined {
  if (b.zeros >= b.total) return 'every observation is 0 ms, where a lognormal has no mass';
  if (o.kind === 'durations') return 'the durations above 0 ms take a single value: they have no spread a lognormal could take';
  const why = noLognormalMle(b.bins);
  if (why === 'open-ended') return 'the observations above 0 ms lie in the first bucket and above the highest bound alone, where ever wider lognormals fit ever better: a spread needs a bucket between them';
  return `the observations above 0 ms lie in ${why === 'one' ? 'one bucket' : 'two adjacent buckets'}, where ever narrower lognormals fit ever better: a spread needs a third bucket, or two apart`;
}

function fitLognormal(o: Observations, b: Binned): LognormalFit | { problem: string } {
  const mle = o.kind === 'durations' ? durationsMle(o.sorted.subarray(b.zeros)) : lognormalMle(b.bins);
  if (mle === undefined) return { problem: noLognormal(o, b) as string };
  const fitted = [{ weight: 1, mu: mle.mu, sigma: mle.sigma }];
  return { ...printed(mle.mu, mle.sigma), fitted, goodness: goodness(fitted, b.bins, 2) };
}

function fitMixture(b: Binned, one: LognormalFit | { problem: string }): MixtureFit | { problem: string } {
  if ('problem' in one) return one;
  const single = one.fitted[0] as Component;
  const found = mixtureMle(b.bins, single);
  if (found === undefined) return { problem: `its five parameters need observations in five buckets or more (${b.bins.count.filter((c) => c > 0).length} hold some)` };
  // The search starts from the lognormal; on buckets merged for it (MAX_FIT_BINS) it may still end
  // a little less likely on all of them: the lognormal itself, as two equal halves, is then the mixture.
  const lnOne = logLikelihood(one.fitted, b.bins);
  const fitted = logLikelihood(found, b.bins) >= lnOne ? found : [{ ...single, weight: 0.5 }, { ...single, weight: 0.5 }];
  const statistic = 2 * (logLikelihood(fitted, b.bins) - lnOne);
  const components = fitted.map((c) => ({ weight: round3(c.weight), ...printed(c.mu, c.sigma) }));
  return { components, fitted, goodness: goodness(fitted, b.bins, 5), ratio: { statistic, p: chiSquareAbove(statistic, 3) } };
}

/**
 * Why the mixture is chosen over the lognormal, or undefined where it is not: the likelihood
 * ratio rejects the lognormal (`ratio`), or else the lognormal's chi-square rejects it and the
 * mixture's judges it a fit (`chi-square`). Where both are rejected and the ratio is not, the
 * mixture is no better a description, and the lognormal stays.
 */
export function mixtureChosen(lognormal: LognormalFit, mixture: MixtureFit): 'ratio' | 'chi-square' | undefined {
  if (mixture.ratio.p < REJECTED_AT) return 'ratio';
  return rejected(lognormal.goodness) && mixture.goodness.p !== undefined && !rejected(mixture.goodness) ? 'chi-square' : undefined;
}

export function fits(o: Observations): Fits {
  const binned = binsOf(o);
  const lognormal = fitLognormal(o, binned);
  const mixture = fitMixture(binned, lognormal);
  const better = !('problem' in lognormal) && !('problem' in mixture) && mixtureChosen(lognormal, mixture) !== undefined;
  return { zero: binned.zeros / binned.total, binned, lognormal, mixture, chosen: 'problem' in lognormal ? undefined : better ? 'mixture' : 'lognormal' };
}

/** The chosen fit as a distribution (with the zeros) at its fitted values, or undefined where none fits. */
export function chosenFit(f: Fits): Fitted | undefined {
  if (f.chosen === 'mixture' && !('problem' in f.mixture)) return { zero: f.zero, components: f.mixture.fitted };
  if (f.chosen === 'lognormal' && !('problem' in f.lognormal)) return { zero: f.zero, components: f.lognormal.fitted };
  return undefined;
}

/** One client timeout and the share of attempts that would end unknown at it: by the fit, and by the data's own reading. */
export interface TimeoutAdvice {
  readonly ms: number;
  /** By the chosen fit (by the data's reading where none fits). */
  readonly share: number;
  /** By the data's reading; `atMost`: the timeout is at or above a histogram's highest bound, so the share is at most the +Inf bucket's. */
  readonly data: { readonly share: number; readonly atMost: boolean };
}

/** A quantile in ms, and whether the data place it (else it lies above the highest bound: the data's reading gives that bound, a fit extrapolates). */
export interface Quantile { readonly ms: number; readonly placed: boolean }

export interface Advice {
  /** Where the figures come from: the chosen fit, or the data's reading where none fits. */
  readonly from: 'lognormal' | 'mixture' | 'data';
  readonly p50: Quantile;
  readonly p90: Quantile;
  readonly p99: Quantile;
  /** The p99 by the data's own reading (histogram_quantile's, or the durations'). */
  readonly dataP99: Quantile;
  /** The highest finite bound (Infinity for durations) and the share of observations above it. */
  readonly top: number;
  readonly beyond: number;
  readonly timeouts: readonly TimeoutAdvice[];
}

/** 1, 2 and 5 times each power of ten from 1 ms to 10^8 ms: the timeouts people write. */
const LADDER: readonly number[] = Array.from({ length: 9 }, (_, k) => [1, 2, 5].map((m) => m * 10 ** k)).flat();

/** The timeouts advice is given on when none are asked for: round values near the p99 (two below, three at or above), and the p99 itself. */
export function defaultTimeouts(p50: number, p99: number): number[] {
  const below = LADDER.filter((t) => t > p50 && t < p99).slice(-2);
  const above = LADDER.filter((t) => t >= p99 && t <= MAX_DURATION_MS).slice(0, 3);
  return [...new Set([...below, round3(p99), ...above])].filter((t) => t > 0).sort((a, b) => a - b);
}

/** The advice: the chosen fit's p50, p90 and p99 and its unknown outcomes at each timeout (in ms), each beside the data's own reading. */
export function advice(o: Observations, f: Fits, timeouts?: readonly number[]): Advice {
  const top = highestBound(o), beyond = beyondEveryBound(o);
  const fitted = chosenFit(f);
  const dataQuantile = (p: number): Quantile => ({ ms: quantileOf(o, p), placed: p <= 1 - beyond });
  const quantile = (p: number): Quantile => (fitted === undefined ? dataQuantile(p) : { ms: fittedQuantile(fitted, p), placed: fittedQuantile(fitted, p) <= top });
  const [p50, p90, p99] = [0.5, 0.9, 0.99].map(quantile) as [Quantile, Quantile, Quantile];
  const dataShare = (ms: number) => (ms >= top && beyond > 0 ? { share: beyond, atMost: true } : { share: shareAbove(o, ms), atMost: false });
  const asked = timeouts ?? defaultTimeouts(p50.ms, p99.ms);
  return {
    from: fitted === undefined ? 'data' : (f.chosen as 'lognormal' | 'mixture'), p50, p90, p99, dataP99: dataQuantile(0.99), top, beyond,
    timeouts: asked.map((ms) => {
      const data = dataShare(ms);
      return { ms, share: fitted === undefined ? data.share : fittedShareAbove(fitted, ms), data };
    }),
  };
}
