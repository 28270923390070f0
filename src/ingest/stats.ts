/**
 * The distribution functions `fit` needs, to double precision: the standard normal's Φ (and
 * the probability of an interval, without cancellation in either tail) and the chi-square
 * distribution's upper tail, for a fit's p-value.
 */

/**
 * Φ(x), by Hart's algorithm 5666 as G. West gives it ("Better approximations to cumulative
 * normal functions", 2005): a rational function up to |x| = 5√2, a continued fraction beyond; it
 * computes the smaller tail itself, so Φ(-x) keeps its relative precision: 1e-15 near 0, 1e-10 at
 * x = -5, 1e-8 at x = -10 (test/fit-mle.test.ts), far finer than any count's sampling error.
 */
export function phi(x: number): number {
  const a = Math.abs(x);
  let tail: number;
  if (a > 37) tail = 0;
  else if (a < 7.07106781186547) {
    const e = Math.exp(-a * a / 2);
    const num = ((((((0.0352624965998911 * a + 0.700383064443688) * a + 6.37396220353165) * a + 33.912866078383) * a + 112.079291497871) * a
      + 221.213596169931) * a + 220.206867912376);
    const den = (((((((0.0883883476483184 * a + 1.75566716318264) * a + 16.064177579207) * a + 86.7807322029461) * a + 296.564248779674) * a
      + 637.333633378831) * a + 793.826512519948) * a + 440.413735824752);
    tail = e * num / den;
  } else {
    const e = Math.exp(-a * a / 2);
    tail = e / (a + 1 / (a + 2 / (a + 3 / (a + 4 / (a + 0.65))))) / 2.506628274631;
  }
  return x > 0 ? 1 - tail : tail;
}

/** Φ(b) - Φ(a) for a <= b (either may be infinite), from the tail both lie in, so a far tail keeps its digits. */
export function between(a: number, b: number): number {
  return a > 0 ? phi(-a) - phi(-b) : phi(b) - phi(a);
}

/** The standard normal density. */
export const density = (x: number): number => (Number.isFinite(x) ? Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI) : 0);

/** ln Γ(x) for x > 0, by Lanczos' approximation (g = 7, nine terms: about 1e-15 relative). */
function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  const z = x - 1, t = z + 7.5;
  let sum = c[0] as number;
  for (let i = 1; i < 9; i++) sum += (c[i] as number) / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The regularized lower incomplete gamma P(a, x) by its series, for x < a + 1 (Numerical Recipes' gser). */
function lowerGamma(a: number, x: number): number {
  let term = 1 / a, sum = term;
  for (let n = 1; n < 100_000 && Math.abs(term) > Math.abs(sum) * 1e-16; n++) {
    term *= x / (a + n);
    sum += term;
  }
  return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
}

/** The regularized upper incomplete gamma Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1 (Numerical Recipes' gcf). */
function upperGamma(a: number, x: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (let i = 1; i < 100_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-16) break;
  }
  return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
}

/** The regularized upper incomplete gamma Q(a, x) = Γ(a, x) / Γ(a), for a > 0: by the series below a + 1, the continued fraction above. */
export function regularizedUpperGamma(a: number, x: number): number {
  if (!(x > 0)) return 1;
  return x < a + 1 ? 1 - lowerGamma(a, x) : upperGamma(a, x);
}

/** P(X > x) for X chi-square with `df` degrees of freedom (df >= 1): Q(df/2, x/2). */
export function chiSquareAbove(x: number, df: number): number {
  return regularizedUpperGamma(df / 2, x / 2);
}
