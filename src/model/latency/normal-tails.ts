/**
 * The standard normal's two tails and its quantile, to double precision in both tails, for the
 * lognormal's cut (`lognormal.ts`). Each tail is computed as the small number it is, never as 1
 * minus the other, so that a tail of 1e-300 keeps its digits.
 *
 * - erfc by W. J. Cody, "Rational Chebyshev approximations for the error function", Math. Comp.
 *   23 (1969) 631-637, as his CALERF (netlib specfun/erf) evaluates it: relative error of the
 *   approximations below 1e-18, so the result is as good as the double arithmetic around them.
 * - Φ⁻¹ by M. J. Wichura, "Algorithm AS 241: The percentage points of the normal distribution",
 *   Applied Statistics 37 (1988) 477-484, PPND16: about 1 part in 10^16.
 *
 * Written here rather than taken from a package: stdlib's erfc and erfcinv, the well-kept ones,
 * bring 57 modules (44 KB minified) into the command line's and the lab's bundles and compute
 * their exponentials and logarithms in JavaScript, which made a cut's tables 40% slower to build.
 */

// CALERF's coefficients: erf on |x| <= 0.46875 (A, B), erfc on (0.46875, 4] (C, D) and beyond 4 (P, Q).
const A = [3.16112374387056560e0, 1.13864154151050156e2, 3.77485237685302021e2, 3.20937758913846947e3, 1.85777706184603153e-1];
const B = [2.36012909523441209e1, 2.44024637934444173e2, 1.28261652607737228e3, 2.84423683343917062e3];
const C = [5.64188496988670089e-1, 8.88314979438837594e0, 6.61191906371416295e1, 2.98635138197400131e2, 8.81952221241769090e2,
  1.71204761263407058e3, 2.05107837782607147e3, 1.23033935479799725e3, 2.15311535474403846e-8];
const D = [1.57449261107098347e1, 1.17693950891312499e2, 5.37181101862009858e2, 1.62138957456669019e3, 3.29079923573345963e3,
  4.36261909014324716e3, 3.43936767414372164e3, 1.23033935480374942e3];
const P = [3.05326634961232344e-1, 3.60344899949804439e-1, 1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4,
  1.63153871373020978e-2];
const Q = [2.56852019228982242e0, 1.87295284992346047e0, 5.27905102951428412e-1, 6.05183413124413191e-2, 2.33520497626869185e-3];
/** 1/√π. */
const SQRPI = 5.6418958354775628695e-1;
/** Beyond it erfc underflows (CALERF's XBIG). */
const XBIG = 26.543;

const at = (coefficients: readonly number[], i: number): number => coefficients[i] as number;

/** e^(-y²), from y² split so that its rounding does not cost e^(-y²) its digits (CALERF). */
function expMinusSquare(y: number): number {
  const rounded = Math.trunc(y * 16) / 16;
  return Math.exp(-rounded * rounded) * Math.exp(-(y - rounded) * (y + rounded));
}

/** The complementary error function, erfc(x) = (2/√π) ∫ₓ^∞ e^(-t²) dt. */
export function erfc(x: number): number {
  const y = Math.abs(x);
  if (y <= 0.46875) {
    const ysq = y > 1.11e-16 ? y * y : 0;
    let num = at(A, 4) * ysq, den = ysq;
    for (let i = 0; i < 3; i++) { num = (num + at(A, i)) * ysq; den = (den + at(B, i)) * ysq; }
    return 1 - (x * (num + at(A, 3))) / (den + at(B, 3));
  }
  let result: number;
  if (y <= 4) {
    let num = at(C, 8) * y, den = y;
    for (let i = 0; i < 7; i++) { num = (num + at(C, i)) * y; den = (den + at(D, i)) * y; }
    result = expMinusSquare(y) * ((num + at(C, 7)) / (den + at(D, 7)));
  } else if (y < XBIG) {
    const ysq = 1 / (y * y);
    let num = at(P, 5) * ysq, den = ysq;
    for (let i = 0; i < 4; i++) { num = (num + at(P, i)) * ysq; den = (den + at(Q, i)) * ysq; }
    result = expMinusSquare(y) * ((SQRPI - (ysq * (num + at(P, 4))) / (den + at(Q, 4))) / y);
  } else {
    result = Number.isNaN(y) ? NaN : 0;
  }
  return x < 0 ? 2 - result : result;
}

/** Φ(z) = P(Z <= z); 0 at -Infinity, 1 at Infinity. */
export const lowerTail = (z: number): number => erfc(-z * Math.SQRT1_2) / 2;

/** 1 - Φ(z) = P(Z > z), computed as itself. */
export const upperTail = (z: number): number => erfc(z * Math.SQRT1_2) / 2;

// PPND16's coefficients: the middle |p - 1/2| <= 0.425 (A, B), r = sqrt(-ln p) up to 5 (C, D) and beyond (E, F).
const MA = [3.3871328727963666080e0, 1.3314166789178437745e2, 1.9715909503065514427e3, 1.3731693765509461125e4,
  4.5921953931549871457e4, 6.7265770927008700853e4, 3.3430575583588128105e4, 2.5090809287301226727e3];
const MB = [1, 4.2313330701600911252e1, 6.8718700749205790830e2, 5.3941960214247511077e3,
  2.1213794301586595867e4, 3.9307895800092710610e4, 2.8729085735721942674e4, 5.2264952788528545610e3];
const NC = [1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0, 3.64784832476320460504e0,
  1.27045825245236838258e0, 2.41780725177450611770e-1, 2.27238449892691845833e-2, 7.74545014278341407640e-4];
const ND = [1, 2.05319162663775882187e0, 1.67638483018380384940e0, 6.89767334985100004550e-1,
  1.48103976427480074590e-1, 1.51986665636164571966e-2, 5.47593808499534494600e-4, 1.05075007164441684324e-9];
const FE = [6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0, 2.96560571828504891230e-1,
  2.65321895265761230930e-2, 1.24266094738807843860e-3, 2.71155556874348757815e-5, 2.01033439929228813265e-7];
const FF = [1, 5.99832206555887937690e-1, 1.36929880922735805310e-1, 1.48753612908506148525e-2,
  7.86869131145613259100e-4, 1.84631831751005468180e-5, 1.42151175831644588870e-7, 2.04426310338993978564e-15];

/** The polynomial with these coefficients (lowest first) at x, by Horner's rule. */
function polynomial(coefficients: readonly number[], x: number): number {
  let sum = 0;
  for (let i = coefficients.length - 1; i >= 0; i--) sum = sum * x + at(coefficients, i);
  return sum;
}

/** Φ⁻¹(p) for 0 <= p <= 1/2 (PPND16 on the lower half): -Infinity at 0. */
function lowerQuantile(p: number): number {
  const q = p - 0.5;
  if (q >= -0.425) {
    const r = 0.180625 - q * q;
    return (q * polynomial(MA, r)) / polynomial(MB, r);
  }
  if (p === 0) return -Infinity;
  const r = Math.sqrt(-Math.log(p));
  return r <= 5 ? -polynomial(NC, r - 1.6) / polynomial(ND, r - 1.6) : -polynomial(FE, r - 5) / polynomial(FF, r - 5);
}

/**
 * The z with Φ(z) = lower and 1 - Φ(z) = upper (lower + upper = 1, each computed directly by the
 * caller): from whichever is the smaller, where its digits are. -Infinity at lower 0, Infinity at
 * upper 0.
 */
export function normalQuantile(lower: number, upper: number): number {
  return lower <= upper ? lowerQuantile(lower) : -lowerQuantile(upper);
}
