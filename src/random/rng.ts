/**
 * The simulation's random stream: seedrandom's `tychei` generator (Neves & Araujo, "Fast and
 * Small Nonlinear Pseudorandom Number Generators for Computer Simulation", 2011), stepped
 * here rather than through seedrandom's closure so that the hot loop makes no calls it
 * cannot inline. seedrandom seeds it: its ARC4 key schedule hashes the root seed and the
 * stream's name, and `seedrandom.tychei` turns that into the generator's state. A test
 * checks that this class and `seedrandom.tychei` give the same numbers.
 *
 * Bits only: the distributions built on it live in files of their own beside it.
 */
import seedrandom from 'seedrandom';

interface TycheState { a: number; b: number; c: number; d: number }

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(state: TycheState) {
    this.a = state.a | 0;
    this.b = state.b | 0;
    this.c = state.c | 0;
    this.d = state.d | 0;
  }

  /** The next 32 random bits, as a signed integer (seedrandom's `int32()`). */
  int32(): number {
    let b = this.b, c = this.c, d = this.d, a = this.a;
    b = (b << 25) ^ (b >>> 7) ^ c;
    c = (c - d) | 0;
    d = (d << 24) ^ (d >>> 8) ^ a;
    a = (a - b) | 0;
    this.b = b = (b << 20) ^ (b >>> 12) ^ c;
    this.c = c = (c - d) | 0;
    this.d = (d << 16) ^ (c >>> 16) ^ a;
    return (this.a = (a - b) | 0);
  }

  /** Uniform on [0, 1) with 32 random bits (seedrandom's `prng()`). */
  next(): number {
    return (this.int32() >>> 0) * 2.3283064365386963e-10; // 2^-32
  }
}

/** Derives the independent stream of chunk `index` from the root seed (never `seed + i`). */
export function chunkRng(seed: string, index: number): Rng {
  return streamRng(seed, `chunk/${index}`);
}

/** Derives a named stream from the root seed. */
export function streamRng(seed: string, name: string): Rng {
  const hash = seedrandom(`idem-sim/v1/${seed}/${name}`);
  // 53 bits from the ARC4 hash seed tychei, which reads an integer seed as its high and low words.
  const seed53 = Math.floor(hash() * 2 ** 21) * 2 ** 32 + Math.floor(hash() * 2 ** 32);
  const prng = seedrandom.tychei(seed53 as unknown as string, { state: true });
  return new Rng(prng.state() as unknown as TycheState);
}
