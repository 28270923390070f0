/**
 * The tables the lognormal's and the exponential's cuts draw from (model/latency/table.ts): their
 * error in CDF terms, measured here at many points of every cell drawn from a table rather than
 * at the builder's three, with distribution functions of this file's own; the draws where cells
 * meet; the share of draws left to the exact quantile; and the normal's tails and quantile.
 */
import { describe, expect, it } from 'vitest';
import { phi } from '../src/ingest/stats.js';
import { exponentialCut } from '../src/model/latency/exponential.js';
import { lognormalCut } from '../src/model/latency/lognormal.js';
import { nextUp } from '../src/model/latency/next-up.js';
import { erfc, lowerTail, normalQuantile, upperTail } from '../src/model/latency/normal-tails.js';
import { CELLS, TOLERANCE, type TableCut } from '../src/model/latency/table.js';

/** A cut at `at`, and P(L <= x) and P(L > x) as this file computes them. */
interface Tabled { name: string; at: number; cut: TableCut; cdf: (x: number) => number; tail: (x: number) => number }

const lognormal = (median: number, sigma: number, at: number): Tabled => ({
  name: `lognormal(${median}, ${sigma}) at ${at} ms`, at, cut: lognormalCut(median, sigma, at),
  // Hart's Φ (ingest/stats.ts): about 1e-15 absolute near the middle and far finer than 1e-9
  // relative out to z = 4, beyond which none of these cuts lies.
  cdf: (x) => phi(Math.log(x / median) / sigma), tail: (x) => phi(-Math.log(x / median) / sigma),
});
const exponential = (mean: number, at: number): Tabled => ({
  name: `exponential(${mean}) at ${at} ms`, at, cut: exponentialCut(mean, at), cdf: (x) => -Math.expm1(-x / mean), tail: (x) => Math.exp(-x / mean),
});

const TABLED: Tabled[] = [
  lognormal(300, 0.6, 1000), lognormal(1200, 0.6, 600), lognormal(300, 0.01, 301), lognormal(300, 0.1, 300), lognormal(300, 0.1, 330),
  lognormal(300, 1, 30), lognormal(300, 3, 300), lognormal(300, 3, 30_000), lognormal(300, 10, 300), lognormal(300, 10, 1e9),
  exponential(300, 1000), exponential(300, 30),
];

/** Points per cell at which the error is measured (the builder measures three). */
const POINTS = 32;

describe.each(TABLED)('the tables of $name', ({ at, cut, cdf, tail }) => {
  const below = { name: 'below', draw: (v: number) => cut.below(v), cdf: (x: number) => cdf(x) / cdf(at) };
  const above = { name: 'above', draw: (v: number) => cut.above(v), cdf: (x: number) => (tail(at) - tail(x)) / tail(at) };
  const sides = [below, above];

  it('distort the conditional CDF by at most 1e-9 in every cell drawn from them', () => {
    const cells = cut.cells();
    for (const [side, tabled] of [[below, cells.below], [above, cells.above]] as const) {
      let worst = 0;
      for (let j = 0; j < CELLS; j++) {
        if (!tabled[j]) continue;
        for (let k = 1; k < POINTS; k++) {
          const v = (j + k / POINTS) / CELLS;
          worst = Math.max(worst, Math.abs(side.cdf(side.draw(v)) - v));
        }
      }
      expect(worst, side.name).toBeLessThanOrEqual(TOLERANCE);
      // Most of each side comes from its table: the exact cells are at the steep ends.
      expect(tabled.filter(Boolean).length, side.name).toBeGreaterThan(CELLS * 0.9);
    }
  });

  it('rise where cells meet, the table and the exact quantile too, and keep to their side at v = 0 and 1', () => {
    for (const side of sides) {
      let last = -Infinity, rising = true;
      for (let j = 0; j <= CELLS; j++) {
        // The last double before the cell's edge, the edge, and the next.
        for (const v of [j / CELLS - 2 ** -53, j / CELLS, j / CELLS + 2 ** -52].filter((w) => w >= 0 && w <= 1)) {
          const x = side.draw(v);
          rising &&= x >= last;
          last = x;
        }
      }
      expect(rising, side.name).toBe(true);
    }
    for (const v of [0, 1]) {
      expect(cut.below(v)).toBeLessThanOrEqual(at);
      expect(cut.above(v)).toBeGreaterThan(at);
      expect(Number.isFinite(cut.above(v))).toBe(true);
    }
  });
});

describe('the share of draws the exact quantile makes', () => {
  /** Of the draws of both sides by their chances, those whose cell is drawn by the exact quantile. */
  const exactShare = (cut: TableCut): number => {
    const { below, above } = cut.cells();
    const exact = (tabled: boolean[]): number => tabled.filter((t) => !t).length / CELLS;
    return cut.pBelow * exact(below) + cut.pAbove * exact(above);
  };
  it('is under 1% for the lab\'s lognormal and mission 2\'s (0.44% and 0.57% when measured)', () => {
    expect(exactShare(lognormalCut(300, 0.6, 1000))).toBeLessThan(0.01);
    expect(exactShare(lognormalCut(1200, 0.6, 600))).toBeLessThan(0.01);
  });
});

describe('the normal\'s tails and quantile (Cody\'s erfc, Wichura\'s AS241)', () => {
  // Known answers to 20 digits (mpmath at 50 digits): a few units in the last place of a double apart.
  const ERFC = [[0.1, 0.8875370839817151016], [0.46875, 0.50738652678206200841], [1, 0.15729920705028513066], [2, 0.0046777349810472658379],
    [4, 1.5417257900280018852e-8], [5, 1.5374597944280348502e-12], [10, 2.088487583762544757e-45], [26, 5.6631924088561428465e-296]] as const;
  const QUANTILES = [[1e-300, -37.047096299361199237], [1e-100, -21.273453560965324295], [1e-12, -7.0344838253011319298],
    [1e-3, -3.0902323061678135415], [0.025, -1.9599639845400542355], [0.2, -0.84162123357291420518]] as const;

  it('erfc has its known answers, in each tail to its own digits', () => {
    for (const [x, expected] of ERFC) {
      expect(Math.abs(erfc(x) / expected - 1), `erfc(${x})`).toBeLessThan(1e-15);
      expect(Math.abs(erfc(-x) - (2 - expected)), `erfc(${-x})`).toBeLessThan(1e-15);
    }
    expect([erfc(0), erfc(30), erfc(Infinity), erfc(-Infinity)]).toEqual([1, 0, 0, 2]);
    expect(lowerTail(-Infinity)).toBe(0);
    expect(upperTail(Infinity)).toBe(0);
    expect(lowerTail(Infinity)).toBe(1);
    // Beside Hart's Φ (ingest/stats.ts), an algorithm of its own: 1e-7 apart out to z = 8.
    for (const z of [-8, -5, -2, -0.5, 0, 0.5, 2, 5, 8]) {
      expect(Math.abs(lowerTail(z) / phi(z) - 1)).toBeLessThan(1e-7);
      expect(Math.abs(upperTail(z) / phi(-z) - 1)).toBeLessThan(1e-7);
    }
  });

  it('the quantile has its known answers from the smaller tail, down to 1e-300, and inverts the tails', () => {
    for (const [p, z] of QUANTILES) {
      // 1 - p is given as its other tail, as a caller computes it.
      expect(Math.abs(normalQuantile(p, 1 - p) / z - 1), `Φ⁻¹(${p})`).toBeLessThan(1e-15);
      expect(normalQuantile(1 - p, p) === -normalQuantile(p, 1 - p)).toBe(true);
    }
    for (let e = -300; e < 0; e += 0.7) {
      const p = 10 ** e, z = normalQuantile(p, 1 - p);
      // z to a few units in its last place, which Φ turns into about z² times that of p.
      expect(Math.abs(lowerTail(z) / p - 1), `p ${p}`).toBeLessThan(1e-15 * (1 + z * z));
    }
    expect(normalQuantile(0.5, 0.5)).toBe(0);
    expect(normalQuantile(0, 1)).toBe(-Infinity);
    expect(normalQuantile(1, 0)).toBe(Infinity);
  });
});

describe('nextUp', () => {
  it('is the next double: nothing lies between x and it', () => {
    for (const x of [1000, 0.1, 1e-300, 2 ** 40, -3]) {
      const up = nextUp(x);
      expect(up).toBeGreaterThan(x);
      expect([x, up]).toContain((x + up) / 2);
    }
    expect(nextUp(0)).toBe(Number.MIN_VALUE);
    expect(nextUp(Number.MAX_VALUE)).toBe(Infinity);
    expect(nextUp(Infinity)).toBe(Infinity);
  });
});
