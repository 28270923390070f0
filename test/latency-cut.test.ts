/**
 * Every latency form split at a cut (`LatencySampler.cut`, model/latency/form.ts): each side's
 * chance, and a draw from each side given one uniform, checked against distribution functions
 * written here independently of the forms (the lognormal's Φ is Hart's algorithm from
 * ingest/stats.ts, not the erfc the form uses), and against the forms' own `sample`.
 */
import { describe, expect, it } from 'vitest';
import { phi } from '../src/ingest/stats.js';
import { compileLatency, type LatencySpec } from '../src/model/latency.js';
import type { LatencyCut } from '../src/model/latency/form.js';
import { histogramShareAbove, histogramValues, type HistogramBucket } from '../src/model/latency/histogram-data.js';
import { chunkRng } from '../src/random/rng.js';

/** A distribution, and its P(L <= x) and P(L > x) as this file computes them. */
interface Case {
  name: string; spec: LatencySpec; cdf: (x: number) => number; tail: (x: number) => number; cuts: readonly number[];
  /** A mixture's components with a weight: it draws a side by composing theirs, not by its quantile function. */
  components?: number;
}

const clamp01 = (p: number): number => Math.min(1, Math.max(0, p));
/** Φ⁻¹(1 - 1e-12): the lognormal cuts at its 1e-12, 0.5 and 1 - 1e-12 quantiles. */
const Z12 = 7.034483825301131;

function lognormalCase(median: number, sigma: number, extra: readonly number[] = []): Case {
  const z = (x: number): number => Math.log(x / median) / sigma;
  return {
    name: `lognormal(${median}, ${sigma})`, spec: { dist: 'lognormal', median, sigma },
    cdf: (x) => phi(z(x)), tail: (x) => phi(-z(x)),
    cuts: [0, median * Math.exp(-Z12 * sigma), median, median * Math.exp(Z12 * sigma), Infinity, ...extra],
  };
}

const HISTOGRAM = histogramValues([{ le: 0, count: 6 }, { le: 0.5, count: 11 }, { le: 1, count: 14 }], 19, 1000);
const HISTOGRAM_GAP = histogramValues([{ le: 0.1, count: 4 }, { le: 0.2, count: 4 }, { le: 0.4, count: 10 }], null, 1000);
const histogramCase = (name: string, values: readonly HistogramBucket[], cuts: readonly number[]): Case => ({
  name, cuts, spec: { dist: 'histogram', buckets: [], total: null, unit: null, file: 'h.prom', format: null, metric: null, values },
  cdf: (x) => 1 - histogramShareAbove(values, x), tail: (x) => histogramShareAbove(values, x),
});
const OBSERVED = [5, 1, 3, 3, 9, 7, 2, 3];
const countOf = (keep: (v: number) => boolean): number => OBSERVED.filter(keep).length / OBSERVED.length;

const CASES: Case[] = [
  lognormalCase(300, 0.1), lognormalCase(300, 0.6, [1000]), lognormalCase(1200, 0.6, [600]), lognormalCase(300, 3), lognormalCase(300, 10),
  { name: 'constant 250', spec: { dist: 'constant', value: 250 }, cdf: (x) => (x >= 250 ? 1 : 0), tail: (x) => (x >= 250 ? 0 : 1), cuts: [0, 100, 250, 1000, Infinity] },
  { name: 'constant 0', spec: { dist: 'constant', value: 0 }, cdf: (x) => (x >= 0 ? 1 : 0), tail: (x) => (x >= 0 ? 0 : 1), cuts: [0, 10, Infinity] },
  { name: 'uniform 100..500', spec: { dist: 'uniform', min: 100, max: 500 }, cdf: (x) => clamp01((x - 100) / 400), tail: (x) => clamp01((500 - x) / 400), cuts: [0, 50, 100, 300, 500, 1000, Infinity] },
  { name: 'uniform 200..200', spec: { dist: 'uniform', min: 200, max: 200 }, cdf: (x) => (x >= 200 ? 1 : 0), tail: (x) => (x >= 200 ? 0 : 1), cuts: [0, 200, 300, Infinity] },
  { name: 'exponential 300', spec: { dist: 'exponential', mean: 300 }, cdf: (x) => -Math.expm1(-x / 300), tail: (x) => Math.exp(-x / 300), cuts: [0, 1, 300, 1000, 10_000, Infinity] },
  { name: 'exponential 0', spec: { dist: 'exponential', mean: 0 }, cdf: (x) => (x >= 0 ? 1 : 0), tail: (x) => (x >= 0 ? 0 : 1), cuts: [0, 5, Infinity] },
  { name: 'empirical', spec: { dist: 'empirical', file: 'e.txt', values: OBSERVED }, cdf: (x) => countOf((v) => v <= x), tail: (x) => countOf((v) => v > x), cuts: [0, 0.5, 3, 4, 9, 100, Infinity] },
  histogramCase('histogram with atoms at 0 and its top', HISTOGRAM, [0, 250, 500, 999, 1000, 2000, Infinity]),
  histogramCase('histogram with an empty bucket', HISTOGRAM_GAP, [0, 50, 100, 150, 200, 300, 400, Infinity]),
  {
    name: 'mixture', cuts: [0, 300, 1000, 5000, 6000, Infinity], components: 2,
    spec: { dist: 'mixture', components: [{ weight: 9, dist: 'lognormal', median: 300, sigma: 0.6 }, { weight: 1, dist: 'constant', value: 5000 }, { weight: 0, dist: 'uniform', min: 0, max: 10 }] },
    cdf: (x) => (9 * phi(Math.log(x / 300) / 0.6) + (x >= 5000 ? 1 : 0)) / 10,
    tail: (x) => (9 * phi(-Math.log(x / 300) / 0.6) + (x >= 5000 ? 0 : 1)) / 10,
  },
];

/** The draw of either side from one uniform u, as the engine makes it. */
const splitDraw = (cut: LatencyCut, u: number): number => (u < cut.pBelow ? cut.below(u / cut.pBelow) : cut.above((u - cut.pBelow) / cut.pAbove));
/** A value just below x > 0, for the CDF's left limit there (0 below the support, which starts at 0). */
const before = (x: number): number => x * (1 - 2 ** -52);
/** The v of a grid over [0, 1], both ends included. */
const GRID = Array.from({ length: 2001 }, (_, i) => i / 2000);

/** The largest gap between two samples' empirical CDFs (the two-sample Kolmogorov-Smirnov statistic). */
function ksDistance(a: Float64Array, b: Float64Array): number {
  a.sort(); b.sort();
  let i = 0, j = 0, d = 0;
  while (i < a.length && j < b.length) {
    const x = Math.min(a[i] as number, b[j] as number);
    while (i < a.length && (a[i] as number) <= x) i++;
    while (j < b.length && (b[j] as number) <= x) j++;
    d = Math.max(d, Math.abs(i / a.length - j / b.length));
  }
  return d;
}

describe.each(CASES)('the cut of $name', (c) => {
  const sampler = compileLatency(c.spec);
  it.each(c.cuts)('at %d ms: chances of each side', (at) => {
    const cut = sampler.cut(at);
    // Each computed directly, they add up to 1 within a few units in the last place.
    expect(Math.abs(cut.pBelow + cut.pAbove - 1)).toBeLessThanOrEqual(4 * Number.EPSILON);
    // Against this file's functions: relative 1e-7, where Hart's Φ is good to about 1e-9 even at 1e-12.
    for (const [p, expected] of [[cut.pBelow, c.cdf(at)], [cut.pAbove, c.tail(at)]] as const) {
      expect(Math.abs(p - expected)).toBeLessThanOrEqual(1e-7 * expected + 1e-15);
    }
    // Against sample(): the share of n draws at most `at` lies within 4 standard errors,
    // 4·sqrt(p(1 - p)/n), of pBelow (exactly at it where p is 0 or 1, or 1e-12 away).
    const rng = chunkRng('test', 0), n = 20_000;
    let atMost = 0;
    for (let i = 0; i < n; i++) if (sampler.sample(rng) <= at) atMost++;
    expect(Math.abs(atMost / n - cut.pBelow)).toBeLessThanOrEqual(4 * Math.sqrt(cut.pBelow * cut.pAbove / n));
  });

  it.each(c.cuts)('at %d ms: the quick draw is below(v) or NaN, and NaN at v = 1 (how the engines ask for none)', (at) => {
    const cut = sampler.cut(at);
    expect(cut.belowQuick(1)).toBeNaN();
    if (cut.pBelow === 0) return;
    const wrong: string[] = [];
    for (const v of GRID) {
      const quick = cut.belowQuick(v);
      if (v < 1 && !Number.isNaN(quick) && quick !== cut.below(v)) wrong.push(`v ${v}: ${quick} against below's ${cut.below(v)}`);
    }
    expect(cut.belowQuick(1)).toBeNaN(); // still, once every cell the grid reaches is built
    expect(wrong).toEqual([]);
  });

  it.each(c.cuts)('at %d ms: where quickBetween says every v of a range draws quickly, each does (and never for v = 1)', (at) => {
    const cut = sampler.cut(at);
    if (cut.pBelow === 0) return;
    expect(cut.quickBetween(0.5, 1)).toBe(false);
    const wrong: string[] = [];
    let quick = 0;
    for (let k = 0; k + 1 < GRID.length; k++) {
      const v0 = GRID[k] as number, v1 = GRID[k + 1] as number;
      if (!(v1 < 1) || !cut.quickBetween(v0, v1)) continue;
      quick++;
      for (const v of [v0, (v0 + v1) / 2, v1]) if (Number.isNaN(cut.belowQuick(v))) wrong.push(`v ${v} in [${v0}, ${v1}]`);
    }
    expect(wrong).toEqual([]);
    // A form with a table says so somewhere (its cells are built now); one without never does.
    expect(quick > 0).toBe(GRID.some((v) => v < 1 && !Number.isNaN(cut.belowQuick(v))));
  });

  it.each(c.cuts)('at %d ms: each side on its side, distributed as L given the side', (at) => {
    const cut = sampler.cut(at);
    const sides = [
      { p: cut.pBelow, draw: (v: number) => cut.below(v), onSide: (x: number) => x <= at,
        // P(L <= x | L <= at) and its left limit.
        cdf: (x: number) => c.cdf(Math.min(x, at)) / c.cdf(at), left: (x: number) => (x > 0 ? c.cdf(before(Math.min(x, at))) / c.cdf(at) : 0) },
      { p: cut.pAbove, draw: (v: number) => cut.above(v), onSide: (x: number) => x > at,
        // P(L <= x | L > at) from the tails, so that a tail of 1e-12 keeps its digits.
        cdf: (x: number) => (c.tail(at) - c.tail(x)) / c.tail(at), left: (x: number) => (c.tail(at) - c.tail(before(x))) / c.tail(at) },
    ];
    for (const side of sides) {
      if (side.p === 0) {
        // Never drawn; it must still answer.
        expect(() => side.draw(0.5)).not.toThrow();
        continue;
      }
      const wrong: string[] = [];
      for (const v of GRID) if (!(Number.isFinite(side.draw(v)) && side.onSide(side.draw(v)))) wrong.push(`v ${v}: ${side.draw(v)} is not on its side`);
      // M draws at a stratified grid of v: the share at most t is the side's CDF at t, to within
      // 1/(2M) for a draw by the quantile function, and within 2/M for each component a mixture
      // composes (its slot of the grid holds one point more or less, and so does the part at most t).
      const m = 4000, strata = Float64Array.from({ length: m }, (_, i) => side.draw((i + 0.5) / m));
      for (const t of [0.1, 0.3, 0.5, 0.7, 0.9].map(side.draw)) {
        const gap = Math.abs(strata.filter((x) => x <= t).length / m - side.cdf(t));
        if (gap > (2 * (c.components ?? 1)) / m) wrong.push(`the share at most ${t} is ${gap} off`);
      }
      if (c.components === undefined) {
        // Every other form draws by the quantile function: rising with v, and x the v-quantile of
        // the side, F(x-) <= v <= F(x) within 1e-6. The tables distort the CDF by at most 1e-9
        // (checked to that bound in latency-table.test.ts) and Hart's Φ is good to about 1e-9
        // relative in the tails drawn here; a draw from a wrong cell of a table would be 1/2048 off.
        let last = -Infinity;
        for (const v of GRID) {
          const x = side.draw(v);
          if (x < last) wrong.push(`v ${v}: ${x} is below the draw before, ${last}`);
          if (side.cdf(x) < v - 1e-6 || side.left(x) > v + 1e-6) wrong.push(`v ${v}: ${x} is not its quantile (F ${side.cdf(x)}, F- ${side.left(x)})`);
          last = x;
        }
      }
      expect(wrong).toEqual([]);
    }
  });

  it.each(c.cuts.filter((at) => Number.isFinite(at)))('at %d ms: the split draw is distributed as sample()', (at) => {
    const cut = sampler.cut(at), n = 20_000;
    const rng = chunkRng('test', 1);
    const split = Float64Array.from({ length: n }, () => splitDraw(cut, rng.next()));
    const sampled = Float64Array.from({ length: n }, () => sampler.sample(rng));
    // Two samples of n from one distribution: P(D > 2.23·sqrt(2/n)) <= 1e-4 (Kolmogorov's
    // asymptotic bound, c(α) = sqrt(-ln(α/2)/2) at α = 1e-4; conservative where values tie).
    expect(ksDistance(split, sampled)).toBeLessThanOrEqual(2.23 * Math.sqrt(2 / n));
  });
});
