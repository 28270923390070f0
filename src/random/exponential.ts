/**
 * Exponential variates (mean 1) by the ziggurat method of Marsaglia and Tsang (2000), 256
 * layers, with their constants: one 32-bit draw and no logarithm in the common case (about
 * 98.9%). The low 8 bits pick the layer and the other 24 the point.
 */
import type { Rng } from './rng.js';

const SCALE = 2 ** 24;
const R = 7.697117470131487; // start of the tail
const V = 3.949659822581572e-3; // area of each layer

const K = new Float64Array(256);
const W = new Float64Array(256);
const F = new Float64Array(256);
{
  let de = R;
  let te = de;
  const q = V / Math.exp(-de);
  K[0] = (de / q) * SCALE;
  K[1] = 0;
  W[0] = q / SCALE;
  W[255] = de / SCALE;
  F[0] = 1;
  F[255] = Math.exp(-de);
  for (let i = 254; i >= 1; i--) {
    de = -Math.log(V / de + Math.exp(-de));
    K[i + 1] = (de / te) * SCALE;
    te = de;
    F[i] = Math.exp(-de);
    W[i] = de / SCALE;
  }
}

/** One Exp(1) variate. */
export function standardExponential(rng: Rng): number {
  const j = rng.int32() >>> 0;
  const i = j & 255;
  const point = j >>> 8;
  if (point < (K[i] as number)) return point * (W[i] as number);
  return exponentialSlow(rng, i, point);
}

function exponentialSlow(rng: Rng, i: number, point: number): number {
  for (;;) {
    if (i === 0) return R - Math.log(1 - rng.next()); // memoryless tail beyond R
    const x = point * (W[i] as number);
    if ((F[i] as number) + rng.next() * ((F[i - 1] as number) - (F[i] as number)) < Math.exp(-x)) return x;
    const j = rng.int32() >>> 0;
    i = j & 255;
    point = j >>> 8;
    if (point < (K[i] as number)) return point * (W[i] as number);
  }
}

/** Exponential with the given mean. */
export function exponential(rng: Rng, mean: number): number {
  return mean * standardExponential(rng);
}
