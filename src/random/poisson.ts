/**
 * Poisson variates: by multiplying uniforms for a small mean, else by Hörmann's transformed
 * rejection with squeeze (PTRS: "The transformed rejection method for generating Poisson random
 * variables", Insurance: Mathematics and Economics 12, 1993), exact for any mean up to 2^53.
 */
import type { Rng } from './rng.js';

/** Below this mean the product of uniforms is the faster method (about mean + 1 draws). */
const SMALL_MEAN = 10;

export function poisson(rng: Rng, mean: number): number {
  if (!(mean >= 0 && mean < 2 ** 53)) throw new RangeError(`poisson mean must be in [0, 2^53), got ${mean}`);
  if (mean === 0) return 0;
  return mean < SMALL_MEAN ? poissonSmall(rng, mean) : poissonPtrs(rng, mean);
}

function poissonSmall(rng: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let product = rng.next();
  while (product > limit) {
    k++;
    product *= rng.next();
  }
  return k;
}

function poissonPtrs(rng: Rng, mean: number): number {
  const logMean = Math.log(mean);
  const b = 0.931 + 2.53 * Math.sqrt(mean);
  const a = -0.059 + 0.02483 * b;
  const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const u = rng.next() - 0.5;
    const v = rng.next();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + mean + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <= -mean + k * logMean - logFactorial(k)) return k;
  }
}

/** ln(k!): summed below 10, else Stirling's series for ln Γ(k + 1) (error below 1e-12). */
export function logFactorial(k: number): number {
  if (k < 10) {
    let sum = 0;
    for (let j = 2; j <= k; j++) sum += Math.log(j);
    return sum;
  }
  const x = k + 1;
  const x2 = x * x;
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x * x2) + 1 / (1260 * x * x2 * x2);
}
