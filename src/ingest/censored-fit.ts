/**
 * Maximum-likelihood fits of interval-censored latencies: counts in buckets, each bucket's
 * probability under a lognormal Φ((ln hi - mu) / sigma) - Φ((ln lo - mu) / sigma) (the +Inf
 * bucket's 1 - Φ((ln lo - mu) / sigma)), Σ count ln(probability) maximised over the parameters
 * by Nelder-Mead (nelder-mead.ts), for one lognormal and for a mixture of two; the durations'
 * own maximum likelihood (their log mean and log standard deviation); and a fit's goodness, a
 * Pearson chi-square over the buckets.
 */
import { MAX_DURATION_MS, MAX_SIGMA } from '../model/limits.js';
import { binProbabilities, binsTotal, logLikelihood, type Bins, type Component } from './lognormal-mix.js';
import { nelderMead } from './nelder-mead.js';
import { chiSquareAbove } from './stats.js';

/** Where a fit looks: a median from 1 ns to MAX_DURATION_MS, sigma from 0.001 to MAX_SIGMA, and a component's weight from about 1e-6 (logit ±14). */
const MU: readonly [number, number] = [Math.log(1e-6), Math.log(MAX_DURATION_MS)];
const LN_SIGMA: readonly [number, number] = [Math.log(1e-3), Math.log(MAX_SIGMA)];
const LOGIT = 14;
const within = (x: number, [lo, hi]: readonly [number, number]): boolean => x >= lo && x <= hi;

/**
 * The most bins a likelihood is computed on: each evaluation costs a Φ per bin and component, and
 * a mixture's search some thousands of evaluations. Beyond it, adjacent bins are fitted together.
 */
export const MAX_FIT_BINS = 400;

/**
 * The bins that hold observations, the only ones a log-likelihood adds; beyond MAX_FIT_BINS of
 * them, runs of adjacent ones joined into MAX_FIT_BINS or fewer (a coarser censoring of the
 * same observations: the bins left between them are empty).
 */
function held(bins: Bins): Bins {
  const keep = bins.count.map((n, i) => (n > 0 ? i : -1)).filter((i) => i >= 0);
  const run = Math.ceil(keep.length / MAX_FIT_BINS);
  const groups = Array.from({ length: Math.ceil(keep.length / run) }, (_, g) => keep.slice(g * run, (g + 1) * run));
  return {
    lo: groups.map((g) => bins.lo[g[0] as number] as number),
    hi: groups.map((g) => bins.hi[g[g.length - 1] as number] as number),
    count: groups.map((g) => g.reduce((s, i) => s + (bins.count[i] as number), 0)),
  };
}

/** A bin's point in ln(ms) for a first guess: its middle; an open end's, the widest finite bin's width (or 1) beyond its bound. */
function middles(bins: Bins): number[] {
  const widths = bins.lo.map((lo, i) => (bins.hi[i] as number) - lo).filter(Number.isFinite);
  const width = widths.length > 0 ? Math.max(...widths) : 1;
  return bins.lo.map((lo, i) => {
    const hi = bins.hi[i] as number;
    return Number.isFinite(lo) && Number.isFinite(hi) ? (lo + hi) / 2 : Number.isFinite(hi) ? hi - width : Number.isFinite(lo) ? lo + width : 0;
  });
}

/** The count-weighted mean and standard deviation of the bins' middles in ln(ms): a first guess of a lognormal. */
function moments(bins: Bins): { mu: number; sigma: number } {
  const x = middles(bins);
  let n = 0, s = 0, ss = 0;
  bins.count.forEach((c, i) => { const v = x[i] as number; n += c; s += c * v; ss += c * v * v; });
  const mu = s / n;
  return { mu, sigma: Math.max(0.05, Math.sqrt(Math.max(0, ss / n - mu * mu))) };
}

/** The observations' mean negative log-likelihood under `components`, Infinity outside the ranges searched. */
const objective = (bins: Bins, n: number) => (components: readonly Component[]): number =>
  (components.every((c) => within(c.mu, MU) && within(Math.log(c.sigma), LN_SIGMA)) ? -logLikelihood(components, bins) / n : Infinity);

/** The search stops where the mean log-likelihood changes by less than this: 1e-7 of the whole at 100,000 observations, far below a standard error's worth (0.5). */
const SEARCH = { fTol: 1e-12 };

/**
 * Why the bins have no lognormal of greatest likelihood, or undefined where they have one. Held
 * in one bin, or in two side by side, ever narrower lognormals about the bound between them fit
 * ever better; held in the first bin (from 0 ms) and the last (above every bound) alone, ever
 * wider ones, which leave the bins between with nothing. Two bins with an empty one between them
 * have a best lognormal: one that reaches both puts mass between them, as a narrow one puts
 * none in one of them.
 */
export function noLognormalMle(bins: Bins): 'one' | 'adjacent' | 'open-ended' | undefined {
  const holding = bins.count.map((n, i) => (n > 0 ? i : -1)).filter((i) => i >= 0);
  if (holding.length === 1) return 'one';
  if (holding.length !== 2) return undefined;
  const [a, b] = holding as [number, number];
  if (b === a + 1) return 'adjacent';
  return bins.lo[a] === -Infinity && bins.hi[b] === Infinity ? 'open-ended' : undefined;
}

/** The lognormal of greatest likelihood for the bins, or undefined where it has none (noLognormalMle). */
export function lognormalMle(bins: Bins): { mu: number; sigma: number } | undefined {
  if (binsTotal(bins) <= 0 || noLognormalMle(bins) !== undefined) return undefined;
  const used = held(bins);
  const start = moments(bins);
  const f = objective(used, binsTotal(used));
  const at = (x: readonly number[]): Component[] => [{ weight: 1, mu: x[0] as number, sigma: Math.exp(x[1] as number) }];
  const best = nelderMead((x) => f(at(x)), [start.mu, Math.log(start.sigma)], { ...SEARCH, steps: [start.sigma / 2, 0.3], maxEvals: 4000 });
  const [c] = at(best.x) as [Component];
  return { mu: c.mu, sigma: c.sigma };
}

/**
 * The bins split in two (faster, slower) where the groups' middles lie furthest apart for their
 * counts (Otsu's threshold, by running sums), and each group's count, mean and spread.
 */
function bestSplit(bins: Bins): { mu: number; sigma: number; n: number }[] {
  const x = middles(bins), k = bins.count.length;
  const sum = (v: (c: number, m: number) => number) => { let acc = 0; return [0, ...bins.count.map((c, i) => (acc += v(c, x[i] as number)))]; };
  const [n, s, ss] = [sum((c) => c), sum((c, m) => c * m), sum((c, m) => c * m * m)] as [number[], number[], number[]];
  const group = (a: number, b: number) => {
    const count = (n[b] as number) - (n[a] as number), mu = ((s[b] as number) - (s[a] as number)) / Math.max(count, 1e-300);
    return { n: count, mu, sigma: Math.max(0.05, Math.sqrt(Math.max(0, ((ss[b] as number) - (ss[a] as number)) / Math.max(count, 1e-300) - mu * mu))) };
  };
  let best = [group(0, k), group(0, k)], score = -1;
  for (let i = 1; i < k; i++) {
    const a = group(0, i), b = group(i, k), value = a.n * b.n * (a.mu - b.mu) ** 2;
    if (a.n > 0 && b.n > 0 && value > score) { score = value; best = [a, b]; }
  }
  return best;
}

/**
 * Where the two components' search starts: the bins split in two, three splits of the single
 * lognormal (even; a slow tenth; a fast tenth), and the single lognormal itself (two equal halves
 * of it, so that the search never ends less likely than the lognormal the mixture nests).
 */
function mixtureStarts(bins: Bins, one: { mu: number; sigma: number }): number[][] {
  const [a, b] = bestSplit(bins) as [{ mu: number; sigma: number; n: number }, { mu: number; sigma: number; n: number }];
  const { mu, sigma: s } = one;
  return [
    [Math.log(Math.max(a.n, 1) / Math.max(b.n, 1)), a.mu, Math.log(a.sigma), b.mu, Math.log(b.sigma)],
    [0, mu - s / 2, Math.log(s / 2), mu + s / 2, Math.log(s / 2)],
    [Math.log(9), mu - 0.1 * s, Math.log(0.8 * s), mu + 1.5 * s, Math.log(s / 2)],
    [-Math.log(9), mu - 1.5 * s, Math.log(s / 2), mu + 0.1 * s, Math.log(0.8 * s)],
    [0, mu, Math.log(s), mu, Math.log(s)],
  ].map((x) => x.map((v, i) => (i === 0 ? Math.max(-LOGIT, Math.min(LOGIT, v)) : i % 2 === 1 ? v : Math.max(LN_SIGMA[0], Math.min(LN_SIGMA[1], v)))));
}

/**
 * The mixture of two lognormals of greatest likelihood for the bins (the faster component first),
 * searched from each of mixtureStarts (the likeliest end kept; of equals, the first), or undefined where the bins hold observations in fewer
 * than five (as many as its parameters).
 */
export function mixtureMle(bins: Bins, one: { mu: number; sigma: number }): Component[] | undefined {
  if (bins.count.filter((c) => c > 0).length < 5) return undefined;
  const used = held(bins);
  const f = objective(used, binsTotal(used));
  const at = (x: readonly number[]): Component[] => {
    const w = 1 / (1 + Math.exp(-(x[0] as number)));
    return [{ weight: w, mu: x[1] as number, sigma: Math.exp(x[2] as number) }, { weight: 1 - w, mu: x[3] as number, sigma: Math.exp(x[4] as number) }];
  };
  const g = (x: readonly number[]): number => (Math.abs(x[0] as number) <= LOGIT ? f(at(x)) : Infinity);
  const found = mixtureStarts(bins, one).map((x0) => nelderMead(g, x0, { ...SEARCH, steps: [1, one.sigma / 2, 0.3, one.sigma / 2, 0.3], maxEvals: 6000 }));
  const best = found.reduce((a, b) => (b.value < a.value ? b : a));
  return at(best.x).sort((a, b) => a.mu - b.mu);
}

/** The durations' maximum-likelihood lognormal: the mean and standard deviation (divided by n) of their logs; undefined for fewer than two distinct. */
export function durationsMle(positive: Float64Array): { mu: number; sigma: number } | undefined {
  const n = positive.length;
  if (n < 2 || positive[0] === positive[n - 1]) return undefined;
  let s = 0;
  for (const v of positive) s += Math.log(v);
  const mu = s / n;
  let ss = 0;
  for (const v of positive) ss += (Math.log(v) - mu) ** 2;
  return { mu, sigma: Math.min(MAX_SIGMA, Math.max(1e-3, Math.sqrt(ss / n))) };
}

/** A fit's goodness: Pearson's chi-square, its degrees of freedom, the groups of buckets it was computed on, and its p-value (undefined with no degrees of freedom). */
export interface Goodness { readonly chiSquare: number; readonly df: number; readonly groups: number; readonly p: number | undefined }

/** The expected count a group of adjacent buckets must reach before it is judged alone: 5, the usual rule for Pearson's chi-square. */
export const MIN_EXPECTED = 5;

/**
 * The goodness of `components` with `parameters` fitted, on the bins: adjacent bins merged from
 * the fastest until each group expects at least MIN_EXPECTED observations (a last group short of
 * it joins the one before), Σ (observed - expected)^2 / expected over the groups, with
 * groups - 1 - parameters degrees of freedom.
 */
export function goodness(components: readonly Component[], bins: Bins, parameters: number): Goodness {
  const p = binProbabilities(components, bins), n = binsTotal(bins);
  const groups: { o: number; e: number }[] = [];
  let o = 0, e = 0;
  bins.count.forEach((c, i) => {
    o += c; e += n * (p[i] as number);
    if (e >= MIN_EXPECTED) { groups.push({ o, e }); o = 0; e = 0; }
  });
  const last = groups[groups.length - 1];
  if (last !== undefined) { last.o += o; last.e += e; } else groups.push({ o, e });
  const chiSquare = groups.reduce((s, g) => s + (g.o - g.e) ** 2 / Math.max(g.e, 1e-300), 0);
  const df = groups.length - 1 - parameters;
  return { chiSquare, df, groups: groups.length, p: df >= 1 ? chiSquareAbove(chiSquare, df) : undefined };
}
