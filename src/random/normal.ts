/**
 * Standard normal variates by the ziggurat method of G. Marsaglia and W. W. Tsang, "The
 * Ziggurat Method for Generating Random Variables" (J. Stat. Software 5(8), 2000), 128
 * layers, with their constants. One 32-bit draw serves the common case (about 98.8%): the
 * low 7 bits pick the layer and the other 25 the point, so no bit serves twice (the
 * weakness of the paper's RNOR noted by Doornik 2005).
 */
import type { Rng } from './rng.js';

const SCALE = 2 ** 24; // the 25-bit signed point lies in [-2^24, 2^24)
const R = 3.442619855899; // start of the tail
const V = 9.91256303526217e-3; // area of each layer

const K = new Float64Array(128); // |point| below K[i]: inside layer i's rectangle
const W = new Float64Array(128); // point -> x
const F = new Float64Array(128); // density at the layer's edge
{
  let dn = R;
  let tn = dn;
  const q = V / Math.exp(-0.5 * dn * dn);
  K[0] = (dn / q) * SCALE;
  K[1] = 0;
  W[0] = q / SCALE;
  W[127] = dn / SCALE;
  F[0] = 1;
  F[127] = Math.exp(-0.5 * dn * dn);
  for (let i = 126; i >= 1; i--) {
    dn = Math.sqrt(-2 * Math.log(V / dn + Math.exp(-0.5 * dn * dn)));
    K[i + 1] = (dn / tn) * SCALE;
    tn = dn;
    F[i] = Math.exp(-0.5 * dn * dn);
    W[i] = dn / SCALE;
  }
}

/** One N(0, 1) variate. */
export function normal(rng: Rng): number {
  const j = rng.int32();
  const i = j & 127;
  const point = j >> 7;
  if (Math.abs(point) < (K[i] as number)) return point * (W[i] as number);
  return normalSlow(rng, i, point);
}

function normalSlow(rng: Rng, i: number, point: number): number {
  for (;;) {
    if (i === 0) {
      // The tail beyond R (Marsaglia 1964).
      let x: number, y: number;
      do {
        x = -Math.log(1 - rng.next()) / R;
        y = -Math.log(1 - rng.next());
      } while (y + y < x * x);
      return point > 0 ? R + x : -R - x;
    }
    const x = point * (W[i] as number);
    if ((F[i] as number) + rng.next() * ((F[i - 1] as number) - (F[i] as number)) < Math.exp(-0.5 * x * x)) return x;
    const j = rng.int32();
    i = j & 127;
    point = j >> 7;
    if (Math.abs(point) < (K[i] as number)) return point * (W[i] as number);
  }
}
