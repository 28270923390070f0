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
  /**
   * The state words a, b, c, d in a typed array rather than four fields: the words take all 32
   * bits, beyond the small integers a field holds unboxed, so fields kept them as heap numbers,
   * read through a pointer and converted at every step (9 ns a draw, against 4 ns here).
   */
  private readonly s: Int32Array;
  constructor(state: TycheState) {
    this.s = Int32Array.of(state.a | 0, state.b | 0, state.c | 0, state.d | 0);
  }

  /** The next 32 random bits, as a signed integer (seedrandom's `int32()`). */
  int32(): number {
    const s = this.s;
    let a = s[0] as number, b = s[1] as number, c = s[2] as number, d = s[3] as number;
    b = (b << 25) ^ (b >>> 7) ^ c;
    c = (c - d) | 0;
    d = (d << 24) ^ (d >>> 8) ^ a;
    a = (a - b) | 0;
    s[1] = b = (b << 20) ^ (b >>> 12) ^ c;
    s[2] = c = (c - d) | 0;
    s[3] = (d << 16) ^ (c >>> 16) ^ a;
    return (s[0] = (a - b) | 0);
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
