/** Uniform variates on [min, max). */
import { unit, type Rng } from './rng.js';

/** U(min, max). */
export function uniform(rng: Rng, min: number, max: number): number {
  return min + (max - min) * unit(rng.int32()); // not rng.next(): rng.ts `unit` says why
}
