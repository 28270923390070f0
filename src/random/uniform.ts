/** Uniform variates on [min, max). */
import type { Rng } from './rng.js';

/** U(min, max). */
export function uniform(rng: Rng, min: number, max: number): number {
  return min + (max - min) * rng.next();
}
