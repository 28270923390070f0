/**
 * The exact Poisson test of an observed count against a predicted mean, and the exact (Garwood)
 * 95% interval of a count (docs/reconcile.md, "Against the model"). The tails come from the
 * regularized incomplete gamma function, P(X ≤ n) = Q(n + 1, μ) for X ~ Poisson(μ), by its
 * series below n + 1 and its continued fraction above (the usual split), with ln Γ from
 * simple-statistics; exact to about 1e-12 relative, at any count.
 */
import { gammaln } from 'simple-statistics';

const EPS = 1e-15;
const MAX_TERMS = 100_000;

/** The lower regularized incomplete gamma P(a, x), by its series (x < a + 1). */
function lowerSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let k = 1; k < MAX_TERMS; k++) {
    term *= x / (a + k);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - gammaln(a));
}

/** The upper regularized incomplete gamma Q(a, x), by its continued fraction (x ≥ a + 1; modified Lentz). */
function upperFraction(a: number, x: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let k = 1; k < MAX_TERMS; k++) {
    const an = -k * (k - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - gammaln(a)) * h;
}

/** Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x ≥ 0. */
function upperGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - lowerSeries(a, x) : upperFraction(a, x);
}

/** P(X ≤ n) for X ~ Poisson(mean). */
export function poissonAtMost(n: number, mean: number): number {
  if (n < 0) return 0;
  if (mean <= 0) return 1;
  return upperGamma(n + 1, mean);
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
