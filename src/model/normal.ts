/**
 * Standard normal variates by the ziggurat method, 128 layers, in the form of
 * J. A. Doornik, "An Improved Ziggurat Method to Generate Normal Random Samples" (2005),
 * with Marsaglia's tail algorithm (Marsaglia & Tsang 2000). Constants from that paper.
 */
import type { Rng } from './rng.js';

const LAYERS = 128;
const R = 3.442619855899; // start of the tail
const V = 9.91256303526217e-3; // area of each layer

const X = new Float64Array(LAYERS + 1); // layer edges, X[1] = R, X[128] = 0
const RATIO = new Float64Array(LAYERS); // X[i+1] / X[i]: |u| below this is inside the rectangle
{
  let f = Math.exp(-0.5 * R * R);
  X[0] = V / f;
  X[1] = R;
  X[LAYERS] = 0;
  for (let i = 2; i < LAYERS; i++) {
    const x = Math.sqrt(-2 * Math.log(V / (X[i - 1] as number) + f));
    X[i] = x;
    f = Math.exp(-0.5 * x * x);
  }
  for (let i = 0; i < LAYERS; i++) RATIO[i] = (X[i + 1] as number) / (X[i] as number);
}

function tail(rng: Rng, negative: boolean): number {
  let x: number, y: number;
  do {
    x = Math.log(1 - rng.next()) / R;
    y = Math.log(1 - rng.next());
  } while (-2 * y < x * x);
  return negative ? x - R : R - x;
}

/** One N(0, 1) variate. */
export function normal(rng: Rng): number {
  for (;;) {
    const u = 2 * rng.next() - 1;
    const i = (rng.next() * LAYERS) | 0;
    const xi = X[i] as number;
    if (Math.abs(u) < (RATIO[i] as number)) return u * xi;
    if (i === 0) return tail(rng, u < 0);
    const x = u * xi;
    const xn = X[i + 1] as number;
    const f0 = Math.exp(-0.5 * (xi * xi - x * x));
    const f1 = Math.exp(-0.5 * (xn * xn - x * x));
    if (f1 + rng.next() * (f0 - f1) < 1) return x;
  }
}
