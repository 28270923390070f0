/**
 * The exact Poisson test of an observed count against a predicted mean, and the exact (Garwood)
 * 95% interval of a count (docs/reconcile.md, "Against the model"). The tails come from the
 * regularized incomplete gamma function, P(X ≤ n) = Q(n + 1, μ) for X ~ Poisson(μ)
 * (ingest/stats.ts, which fit's chi-square test reads too), exact at any count.
 */
import { regularizedUpperGamma } from '../ingest/stats.js';

/** P(X ≤ n) for X ~ Poisson(mean). */
export function poissonAtMost(n: number, mean: number): number {
  if (n < 0) return 0;
  if (mean <= 0) return 1;
  return regularizedUpperGamma(n + 1, mean);
}

/** P(X ≥ n) for X ~ Poisson(mean). */
export function poissonAtLeast(n: number, mean: number): number {
  return n <= 0 ? 1 : 1 - poissonAtMost(n - 1, mean);
}

/** The mean at which `tail(mean)` equals `target`, `tail` rising with the mean, by bisection. */
function solveMean(tail: (mean: number) => number, target: number, hi: number): number {
  let lo = 0;
  while (tail(hi) < target) hi *= 2;
  for (let k = 0; k < 200 && hi - lo > 1e-12 * Math.max(1, hi); k++) {
    const mid = (lo + hi) / 2;
    if (tail(mid) < target) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The exact (Garwood) two-sided interval of a Poisson mean from an observed count `n`, at `level` (0.95). */
export function poissonInterval(n: number, level = 0.95): { low: number; high: number } {
  const alpha = (1 - level) / 2;
  const low = n === 0 ? 0 : solveMean((m) => poissonAtLeast(n, m), alpha, n + 1);
  const high = solveMean((m) => 1 - poissonAtMost(n, m), 1 - alpha, n + 10);
  return { low, high };
}

/** The exact two-sided test of `observed` against a Poisson mean `expected`: its p-value (twice the smaller tail, at most 1). */
export function poissonTest(observed: number, expected: number): number {
  return Math.min(1, 2 * Math.min(poissonAtMost(observed, expected), poissonAtLeast(observed, expected)));
}
