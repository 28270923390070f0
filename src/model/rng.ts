/**
 * Seeded random streams. The generator is seedrandom's `tychei` (the fastest of its
 * algorithms measured here; see README "Random numbers"); each chunk of work gets its own
 * stream whose seed is hashed by seedrandom's ARC4 key schedule from the root seed and
 * the chunk index, so a chunk's numbers do not depend on which thread runs it.
 */
import seedrandom from 'seedrandom';

/** A uniform generator on [0, 1) with 32 random bits per number. */
export type Rng = () => number;

/** Derives the independent stream of chunk `index` from the root seed (never `seed + i`). */
export function chunkRng(seed: string, index: number): Rng {
  return streamRng(seed, `chunk/${index}`);
}

/** Derives a named stream from the root seed. */
export function streamRng(seed: string, name: string): Rng {
  const hash = seedrandom(`idem-sim/v1/${seed}/${name}`);
  // 53 bits from the ARC4 hash seed tychei, which reads an integer seed as its high and low words.
  const seed53 = Math.floor(hash() * 2 ** 21) * 2 ** 32 + Math.floor(hash() * 2 ** 32);
  return seedrandom.tychei(seed53 as unknown as string);
}

/** U(min, max). */
export function uniform(rng: Rng, min: number, max: number): number {
  return min + (max - min) * rng();
}

/** Exponential with the given mean; 1 - u lies in (0, 1], so the log is finite. */
export function exponential(rng: Rng, mean: number): number {
  return -mean * Math.log(1 - rng());
}
