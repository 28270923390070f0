/** The exact Poisson tails, interval and test (reconcile/poisson.ts) against sums of the mass function and published values. */
import { describe, expect, it } from 'vitest';
import { poissonAtLeast, poissonAtMost, poissonInterval, poissonTest } from '../src/reconcile/poisson.js';

/** P(X ≤ n) by summing the mass function in log space (small n only). */
function summed(n: number, mean: number): number {
  let sum = 0;
  let logTerm = -mean;
  for (let i = 0; i <= n; i++) {
    if (i > 0) logTerm += Math.log(mean) - Math.log(i);
    sum += Math.exp(logTerm);
  }
  return sum;
}

describe('Poisson tails', () => {
  it('equal the summed mass function, on both sides of the series/fraction split', () => {
    for (const mean of [0.1, 1, 3.5, 10, 47.3, 200]) {
      for (const n of [0, 1, 2, 5, 9, 10, 11, 50, 199, 250]) {
        expect(poissonAtMost(n, mean)).toBeCloseTo(summed(n, mean), 10);
        expect(poissonAtLeast(n, mean)).toBeCloseTo(n === 0 ? 1 : 1 - summed(n - 1, mean), 10);
      }
    }
  });

  it('hold at large counts: the normal limit within its continuity-corrected error', () => {
    // X ~ Poisson(10^6): P(X ≤ 10^6 + 1000) ≈ Φ(1000.5 / 1000) = Φ(1.0005) = 0.84148 (to 1e-3).
    expect(poissonAtMost(1_001_000, 1e6)).toBeCloseTo(0.8415, 3);
  });
});

describe('the exact (Garwood) 95% interval', () => {
  it('gives the published values', () => {
    // Garwood (1936) as tabled, e.g. by Ulm (1990): n = 0: [0, 3.689]; n = 1: [0.0253, 5.572]; n = 10: [4.795, 18.39].
    const zero = poissonInterval(0);
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(3.6889, 3);
    const one = poissonInterval(1);
    expect(one.low).toBeCloseTo(0.0253, 4);
    expect(one.high).toBeCloseTo(5.5716, 3);
    const ten = poissonInterval(10);
    expect(ten.low).toBeCloseTo(4.7954, 3);
    expect(ten.high).toBeCloseTo(18.3904, 3);
  });
});

describe('the exact test', () => {
  it('finds a count at its mean consistent, and one far off not', () => {
    expect(poissonTest(100, 100)).toBeGreaterThan(0.9);
    expect(poissonTest(150, 100)).toBeLessThan(1e-4);
    expect(poissonTest(60, 100)).toBeLessThan(1e-4);
    expect(poissonTest(0, 0.01)).toBe(1);
  });
});
