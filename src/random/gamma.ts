/**
 * Gamma(shape, 1) variates for shape >= 1 by Marsaglia & Tsang, "A Simple Method for
 * Generating Gamma Variables" (ACM TOMS 26(3), 2000).
 */
import { normal } from './normal.js';
import type { Rng } from './rng.js';

export function gamma(rng: Rng, shape: number): number {
  if (!(shape >= 1)) throw new RangeError(`gamma shape must be >= 1, got ${shape}`);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, v: number;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - rng.next(); // (0, 1]
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}
