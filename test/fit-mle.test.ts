/**
 * `fit`'s maximum-likelihood fits: Φ and the chi-square tail against published values; a
 * lognormal recovered from 100,000 draws counted in 16 buckets, with the tail shares and the
 * healthy p99 it advises, against the truth and against histogram_quantile's reading; a bimodal
 * histogram fitted by the mixture, the single lognormal rejected; the durations' own maximum
 * likelihood; and a known vector fitted exactly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goodness, MAX_FIT_BINS } from '../src/ingest/censored-fit.js';
import { binsOf } from '../src/ingest/fit-buckets.js';
import { logLikelihood } from '../src/ingest/lognormal-mix.js';
import { fitReport, fitText } from '../src/ingest/fit-text.js';
import { advice, fits, mixtureChosen } from '../src/ingest/fit.js';
import type { Observations } from '../src/ingest/observations.js';
import { chiSquareAbove, phi } from '../src/ingest/stats.js';
import { compileLatency } from '../src/model/latency.js';
import type { LatencySpec } from '../src/model/latency.js';
import { histogramValues } from '../src/model/latency/histogram-data.js';
import { chunkRng } from '../src/random/rng.js';

/**
 * The buckets of the finding this fit answers and of scenarios/metrics/checkout.prom: 16 bounds
 * from 5 ms to 5 s, Prometheus's defaults up to 5 s (0.005 ... 2.5, 5) with 0.075 (as
 * payments.prom has it), 0.15, 0.2, 0.3, 0.4 and 0.75 between them.
 */
const BOUNDS_S = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5];
const N = 100_000;
const Z99 = 2.3263478740408408;

/** N draws of a latency (the project's generator, seed "fit"), sorted. */
function draws(spec: LatencySpec): Float64Array {
  const sampler = compileLatency(spec);
  const rng = chunkRng('fit', 0);
  return Float64Array.from({ length: N }, () => sampler.sample(rng)).sort();
}

/** The draws counted in BOUNDS_S, as a histogram's observations (le in seconds, no +Inf observation above 5 s unless drawn). */
function histogramOf(sorted: Float64Array): Observations {
  const buckets = BOUNDS_S.map((le) => ({ le, count: sorted.filter((d) => d <= le * 1000).length }));
  return { kind: 'histogram', values: histogramValues(buckets, N, 1000), found: { buckets, total: N, unit: 's', unitFrom: 'as given', name: 'x', labels: new Map() } };
}

const LOGNORMAL = draws({ dist: 'lognormal', median: 180, sigma: 0.5 });

describe('the distribution functions', () => {
  it('Φ and the chi-square upper tail agree with published values', () => {
    // Φ: R's pnorm to 16 digits; Hart's algorithm holds about 1e-14 near 0 and 1e-9 relative in the far tail.
    for (const [x, p, rel] of [[1, 0.8413447460685429, 1e-14], [-1.96, 0.0249978951482204, 1e-13], [-5, 2.866515718791939e-7, 1e-9], [-10, 7.619853024160527e-24, 1e-8]] as const) {
      expect(Math.abs(phi(x) / p - 1), String(x)).toBeLessThan(rel);
    }
    // Closed forms: one degree of freedom 2Φ(-√x), two e^(-x/2); tables: chi-square(10) 18.307 and chi-square(100) 124.342 at 5% (to their printed digits).
    expect(chiSquareAbove(3.84, 1)).toBeCloseTo(2 * phi(-Math.sqrt(3.84)), 12);
    expect(chiSquareAbove(3, 2)).toBeCloseTo(Math.exp(-1.5), 12);
    expect(chiSquareAbove(18.307, 10)).toBeCloseTo(0.05, 5);
    expect(chiSquareAbove(124.342, 100)).toBeCloseTo(0.05, 5);
  });

  it('judges a fit on groups of buckets expecting 5 or more, with groups - 1 - parameters degrees of freedom', () => {
    const ln = Math.log;
    // Four bins of 100 observations, a lognormal(1 ms, 1) giving each its exact share: chi-square 0.
    const edges = [-Infinity, ln(0.5), ln(1), ln(2), Infinity];
    const bins = { lo: edges.slice(0, -1), hi: edges.slice(1), count: [] as number[] };
    const shares = bins.lo.map((lo, i) => phi(bins.hi[i] as number) - phi(lo));
    const exact = goodness([{ weight: 1, mu: 0, sigma: 1 }], { ...bins, count: shares.map((s) => 100 * s) }, 2);
    expect(exact).toEqual({ chiSquare: expect.closeTo(0, 9), df: 1, groups: 4, p: expect.closeTo(1, 9) });
    // Ten observations: each bin expects 2.4 or 2.6, so they merge in pairs, and no degree of freedom is left to judge a two-parameter fit.
    expect(goodness([{ weight: 1, mu: 0, sigma: 1 }], { ...bins, count: [3, 2, 2, 3] }, 2)).toMatchObject({ groups: 2, df: -1, p: undefined });
  });
});

describe('a lognormal in 16 buckets', () => {
  const o = histogramOf(LOGNORMAL);

  it('is recovered: the median and sigma within 1%, by the buckets\' likelihood', () => {
    const f = fits(o);
    if ('problem' in f.lognormal) throw new Error(f.lognormal.problem);
    // The MLE's standard error: mu's sigma / sqrt(n) = 0.0016, so the median's relative error has
    // an sd of about 0.16% (1% is 6 of them, with 0.28% more for the median printed to 3
    // digits); sigma's sigma / sqrt(2n) = 0.0011, 0.22% (the buckets lose a little of it: 1% is
    // about 4 sd, with 0.1% for printing to 3 decimals).
    expect(Math.abs(f.lognormal.median / 180 - 1)).toBeLessThan(0.01);
    expect(Math.abs(f.lognormal.sigma / 0.5 - 1)).toBeLessThan(0.01);
    // The right model: its chi-square is judged with 16 + 1 buckets merged to groups expecting 5 or more, and not rejected.
    expect(f.lognormal.goodness.p).toBeGreaterThan(0.01);
    expect(f.chosen).toBe('lognormal');
  });

  it('advises from the fit: the healthy p99 and the share above 2 s near the truth, where histogram_quantile\'s reading is far off', () => {
    const a = advice(o, fits(o), [2000]);
    const p99 = 180 * Math.exp(0.5 * Z99); // 576.0 ms
    // ln p99 = mu + z sigma has an sd of sqrt(sigma^2 / n + z^2 sigma^2 / 2n) = 0.0030: 4 sd 1.2%, with printing 2%.
    expect(Math.abs(a.p99.ms / p99 - 1)).toBeLessThan(0.02);
    // Prometheus's reading spreads the p99's bucket (0.5 s, 0.75 s] evenly: 640 ms, 11% above.
    expect(a.dataP99.ms / p99 - 1).toBeGreaterThan(0.1);
    const truth = phi(-Math.log(2000 / 180) / 0.5); // 7.3e-7
    const t = a.timeouts[0] as { share: number; data: { share: number } };
    // d ln(share) = (phi/Q)(x) (dmu + x dsigma) / sigma at x = 4.82, Mills ratio 5.0: an sd of 5.6% from
    // mu's and sigma's; 4 sd 23%, and printing (sigma to 0.0005, the median to 0.28%) 5% more: 30%.
    expect(Math.abs(t.share / truth - 1)).toBeLessThan(0.3);
    // The (1 s, 2.5 s] bucket's 25 observations spread evenly put a third of them above 2 s: over 100 times the truth.
    expect(t.data.share / truth).toBeGreaterThan(100);
  });

  it('is the data set of scenarios/metrics/checkout.prom, which the documentation fits', () => {
    const text = readFileSync(join(import.meta.dirname, '../scenarios/metrics/checkout.prom'), 'utf8');
    const counts = [...text.matchAll(/_bucket\{route="\/checkout",le="([^"]+)"\} (\d+)/g)].map((m) => [m[1], Number(m[2])]);
    expect(counts).toEqual([...BOUNDS_S.map((le) => [String(le), LOGNORMAL.filter((d) => d <= le * 1000).length]), ['+Inf', N]]);
  });
});

describe('a histogram of many buckets', () => {
  it('is fitted on at most MAX_FIT_BINS groups of adjacent buckets, as well', () => {
    // 10,000 bounds a thousandth of a natural log apart from 20 ms: most of the buckets hold draws.
    const bounds = Array.from({ length: 10_000 }, (_, i) => 20 * Math.exp(i / 1000));
    let k = 0;
    const buckets = bounds.map((le) => { while (k < N && (LOGNORMAL[k] as number) <= le) k++; return { le, count: k }; });
    const o: Observations = { kind: 'histogram', values: histogramValues(buckets, N, 1), found: { buckets, total: N, unit: 'ms', unitFrom: 'as given', name: 'x', labels: new Map() } };
    expect(binsOf(o).bins.count.filter((c) => c > 0).length).toBeGreaterThan(MAX_FIT_BINS * 5);
    const { lognormal } = fits(o);
    if ('problem' in lognormal) throw new Error(lognormal.problem);
    // The same standard errors as above: each group spans a few hundredths of ln(ms), against a sigma of 0.5.
    expect(Math.abs(lognormal.median / 180 - 1)).toBeLessThan(0.01);
    expect(Math.abs(lognormal.sigma / 0.5 - 1)).toBeLessThan(0.01);
  });

  it('has its bound in the limits table of docs/security-and-limits.md', () => {
    const limits = readFileSync(join(import.meta.dirname, '../docs/security-and-limits.md'), 'utf8');
    expect(limits).toMatch(new RegExp(`^\\| \`fit\`: the buckets a fit's likelihood reads \\| ${MAX_FIT_BINS} groups \\(\`MAX_FIT_BINS\`\\)`, 'm'));
  });
});

describe('a bimodal histogram', () => {
  const o = histogramOf(draws({ dist: 'mixture', components: [{ weight: 0.8, dist: 'lognormal', median: 100, sigma: 0.3 }, { weight: 0.2, dist: 'lognormal', median: 800, sigma: 0.4 }] }));

  it('is fitted by the mixture, with a goodness that rejects the single lognormal', () => {
    const f = fits(o);
    if ('problem' in f.lognormal || 'problem' in f.mixture) throw new Error('no fit');
    expect(f.lognormal.goodness.p).toBeLessThan(1e-6);
    expect(f.mixture.goodness.p).toBeGreaterThan(0.01);
    expect(f.chosen).toBe('mixture');
    const [fast, slow] = f.mixture.components as [{ weight: number; median: number; sigma: number }, { weight: number; median: number; sigma: number }];
    // The weight's sd is sqrt(0.8 * 0.2 / n) = 0.0013 (4 sd 0.005, and 3 printed digits); the slow
    // component's median sd is 0.4 / sqrt(20,000) = 0.28% (2% is 7 sd), its sigma's 0.4 / sqrt(40,000) = 0.002 (4 sd 0.008).
    expect(Math.abs(fast.weight - 0.8)).toBeLessThan(0.006);
    expect(Math.abs(fast.median / 100 - 1)).toBeLessThan(0.02);
    expect(Math.abs(slow.median / 800 - 1)).toBeLessThan(0.02);
    expect(Math.abs(fast.sigma - 0.3)).toBeLessThan(0.01);
    expect(Math.abs(slow.sigma - 0.4)).toBeLessThan(0.01);
    const text = fitText(fitReport(o, 'bimodal'), 'mixture');
    expect(text).toMatch(/^latency: \{dist: mixture, components: \[\{weight: 0\.8\d*, median: [\d.]+ms, sigma: 0\.\d+\}, \{weight: 0\.\d+, median: [\d.]+ms, sigma: 0\.\d+\}\]\}$/m);
    expect(text).toMatch(/# The lognormal of greatest likelihood: chi-square [\d.]+ on 13 degrees of freedom, p < 0\.0001: it does not fit the buckets \(p < 0\.01\):/);
    expect(text).toMatch(/Advice from these data \(docs\/latency-from-metrics\.md\), by the mixture fitted above\./);
  });
});

describe('durations', () => {
  it('are fitted by their log mean and log standard deviation, the zeros apart', () => {
    const sorted = Float64Array.from([0, 0, ...LOGNORMAL]);
    const o: Observations = { kind: 'durations', sorted, name: 'draws' };
    const f = fits(o);
    if ('problem' in f.lognormal) throw new Error(f.lognormal.problem);
    const logs = Array.from(LOGNORMAL, Math.log);
    const mu = logs.reduce((s, x) => s + x, 0) / N;
    const sigma = Math.sqrt(logs.reduce((s, x) => s + (x - mu) ** 2, 0) / N);
    expect(f.lognormal.median).toBe(+Math.exp(mu).toPrecision(3));
    expect(f.lognormal.sigma).toBe(+sigma.toFixed(3));
    expect(f.zero).toBe(2 / (N + 2));
    // The same standard errors as for the buckets, with none of their loss: 1%.
    expect(Math.abs(f.lognormal.median / 180 - 1)).toBeLessThan(0.01);
    expect(Math.abs(f.lognormal.sigma / 0.5 - 1)).toBeLessThan(0.01);
  });
});

/**
 * The counts a lognormal expects in BOUNDS_S at n observations, each rounded to a whole
 * observation: no sampling error, so a fit at the right values leaves a chi-square of about 0
 * (the roundings' (0.5)^2 / expected at most), and the fit's own parameters are the truth.
 */
function expected(median: number, sigma: number, n: number, bounds: readonly number[] = BOUNDS_S): Observations {
  const buckets = bounds.map((le) => ({ le, count: Math.round(n * phi(Math.log(le * 1000 / median) / sigma)) }));
  return { kind: 'histogram', values: histogramValues(buckets, n, 1000), found: { buckets, total: n, unit: 's', unitFrom: 'as given', name: 'x', labels: new Map() } };
}

describe('a fit is judged at its own values, and printed rounded', () => {
  it('keeps a true lognormal of 10 million observations whose median does not print exactly', () => {
    // 184.6 ms prints as 185 ms, 0.22% off: at n = 1e7 that costs about n (0.0022 / 0.5)^2 = 190
    // of chi-square, which rejected the truth when the figures were computed from the printed values.
    const f = fits(expected(184.6, 0.5, 10_000_000));
    if ('problem' in f.lognormal || 'problem' in f.mixture) throw new Error('no fit');
    expect(f.lognormal.median).toBe(185);
    expect(f.lognormal.sigma).toBe(0.5);
    expect(f.lognormal.goodness.chiSquare).toBeLessThan(0.1);
    expect(f.lognormal.goodness.p).toBeGreaterThan(0.99);
    // The mixture nests the lognormal: never less likely, and here no likelier than the roundings of the counts allow.
    expect(f.mixture.ratio.statistic).toBeGreaterThanOrEqual(0);
    expect(f.mixture.ratio.statistic).toBeLessThan(0.1);
    expect(f.chosen).toBe('lognormal');
    const text = fitText(fitReport(expected(184.6, 0.5, 10_000_000), 'exact'), 'lognormal');
    expect(text).toMatch(/^latency: \{median: 185ms, sigma: 0\.5\}$/m);
    expect(text).toMatch(/# The lognormal of greatest likelihood: chi-square 0\.0\d+ on 10 degrees of freedom, p = 1: it fits the buckets within their sampling error; the advice reads it:/);
    expect(text).toMatch(/the lognormal is enough/);
  });

  it('chooses the mixture only where what it prints says the lognormal does not fit', () => {
    for (const [median, sigma, n] of [[1845, 0.5, 10_000_000], [184.5, 0.5, 1_000_000], [180, 0.3, 100_000]] as const) {
      const f = fits(expected(median, sigma, n));
      if ('problem' in f.lognormal || 'problem' in f.mixture) throw new Error('no fit');
      expect(f.chosen, `${median} ${sigma} ${n}`).toBe('lognormal');
      expect(f.mixture.ratio.statistic).toBeGreaterThanOrEqual(0);
    }
    // The bimodal draws below: the ratio rejects the lognormal, and the text says that is why.
    const sorted = draws({ dist: 'mixture', components: [{ weight: 0.8, dist: 'lognormal', median: 100, sigma: 0.3 }, { weight: 0.2, dist: 'lognormal', median: 800, sigma: 0.4 }] });
    const f = fits(histogramOf(sorted));
    if ('problem' in f.mixture) throw new Error(f.mixture.problem);
    expect(f.mixture.ratio.p).toBeLessThan(0.01);
    expect(fitText(fitReport(histogramOf(sorted), 'bimodal'), 'mixture')).toMatch(/\(p < 0\.0001 on 3 degrees of freedom\): the lognormal does not fit; the advice reads the mixture/);
  });
});

describe('the choice of the mixture', () => {
  it('is the ratio\'s rejection of the lognormal, or else the lognormal\'s chi-square rejecting it where the mixture\'s does not', () => {
    const judged = (p: number | undefined) => ({ chiSquare: 0, df: p === undefined ? 0 : 5, groups: 8, p });
    const lognormal = (p: number | undefined) => ({ median: 1, sigma: 1, fitted: [], goodness: judged(p) });
    const mixture = (ratioP: number, p: number | undefined) => ({ components: [], fitted: [], goodness: judged(p), ratio: { statistic: 1, p: ratioP } });
    expect(mixtureChosen(lognormal(0.5), mixture(0.001, 0.5))).toBe('ratio');
    expect(mixtureChosen(lognormal(0.001), mixture(0.2, 0.5))).toBe('chi-square');
    // Both rejected, or the mixture too few buckets to judge, and the ratio not: the lognormal stays.
    expect(mixtureChosen(lognormal(0.001), mixture(0.2, 0.001))).toBeUndefined();
    expect(mixtureChosen(lognormal(0.001), mixture(0.2, undefined))).toBeUndefined();
    expect(mixtureChosen(lognormal(0.5), mixture(0.2, 0.9))).toBeUndefined();
  });
});

describe('a lognormal on two buckets', () => {
  const bounds = [0.1, 0.3, 0.5, 1, 2, 5];
  const histogram = (counts: readonly number[]): Observations => {
    let sum = 0;
    const buckets = bounds.map((le, i) => ({ le, count: (sum += counts[i] ?? 0) }));
    const total = sum + (counts[bounds.length] ?? 0);
    return { kind: 'histogram', values: histogramValues(buckets, total, 1000), found: { buckets, total, unit: 's', unitFrom: 'as given', name: 'x', labels: new Map() } };
  };

  it('apart has one of greatest likelihood: a finite sigma, better than its neighbours', () => {
    // (0.3 s, 0.5 s] and (1 s, 2 s], with (0.5 s, 1 s] empty between them: a lognormal that puts
    // mass in both puts some between them, so neither a narrow one nor a wide one is best.
    const o = histogram([0, 0, 60, 0, 40, 0, 0]);
    const f = fits(o);
    if ('problem' in f.lognormal) throw new Error(f.lognormal.problem);
    const { mu, sigma } = f.lognormal.fitted[0] as { mu: number; sigma: number };
    expect(sigma).toBeGreaterThan(0.1);
    expect(sigma).toBeLessThan(2);
    expect(Math.exp(mu)).toBeGreaterThan(300);
    expect(Math.exp(mu)).toBeLessThan(2000);
    const bins = binsOf(o).bins;
    const ll = (m: number, s: number) => logLikelihood([{ weight: 1, mu: m, sigma: s }], bins);
    for (const [dm, ds] of [[0.01, 0], [-0.01, 0], [0, 0.01], [0, -0.01]] as const) expect(ll(mu + dm, sigma + ds)).toBeLessThan(ll(mu, sigma));
  });

  it('side by side, or both open-ended, or one bucket alone, has none', () => {
    expect(fits(histogram([0, 0, 60, 40, 0, 0, 0])).lognormal).toEqual({ problem: expect.stringMatching(/in two adjacent buckets, where ever narrower lognormals fit ever better/) });
    expect(fits(histogram([0, 0, 100, 0, 0, 0, 0])).lognormal).toEqual({ problem: expect.stringMatching(/in one bucket, where ever narrower lognormals fit ever better/) });
    // From 0 ms to 0.1 s and above 5 s: ever wider lognormals give both their share and the buckets between them nothing.
    expect(fits(histogram([60, 0, 0, 0, 0, 0, 40])).lognormal).toEqual({ problem: expect.stringMatching(/ever wider lognormals fit ever better/) });
  });
});
