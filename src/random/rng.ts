/**
 * The simulation's random stream: seedrandom's `tychei` generator (Neves & Araujo, "Fast and
 * Small Nonlinear Pseudorandom Number Generators for Computer Simulation", 2011), stepped
 * here rather than through seedrandom's closure so that the hot loop makes no calls it
 * cannot inline. It is seeded as seedrandom seeds it: seedrandom's ARC4 key schedule hashes the
 * root seed and the stream's name, and `seedrandom.tychei` turns that into the generator's
 * state (both written out below, `streamRng`). Tests check that this class and
 * `seedrandom.tychei` give the same numbers, and the seeding seedrandom's.
 *
 * Bits only: the distributions built on it live in files of their own beside it.
 */

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

  /**
   * The next `to - from` uniforms into `into[from..to)`, each `unit(int32())`: the same numbers as that many calls,
   * with the state words in locals for the block: int32 loads and stores them, each draw's first
   * step waiting on the last one's stores, and a counted run at scope intent ran 8% faster with blocks
   * (docs/performance.md, "Uniforms a block at a time").
   * The step is int32's, written again here; test/random.test.ts checks the two agree.
   */
  fillUnits(into: Float64Array, from: number, to: number): void {
    const s = this.s;
    let a = s[0] as number, b = s[1] as number, c = s[2] as number, d = s[3] as number;
    for (let k = from; k < to; k++) {
      b = (b << 25) ^ (b >>> 7) ^ c;
      c = (c - d) | 0;
      d = (d << 24) ^ (d >>> 8) ^ a;
      a = (a - b) | 0;
      b = (b << 20) ^ (b >>> 12) ^ c;
      c = (c - d) | 0;
      d = (d << 16) ^ (c >>> 16) ^ a;
      a = (a - b) | 0;
      into[k] = unit(a);
    }
    s[0] = a; s[1] = b; s[2] = c; s[3] = d;
  }

  /** Moves the stream on by `n` draws, drawing them (the counting loop's rewind ends here: count-path.ts `finishCount`). */
  advance(n: number): void {
    for (let k = 0; k < n; k++) this.int32();
  }

  /** The state words. */
  state(): TycheState {
    const s = this.s;
    return { a: s[0] as number, b: s[1] as number, c: s[2] as number, d: s[3] as number };
  }

  /** The state words into `into` (four of them), for `restore`: plain stores, as a builtin's call costs more than the copy. */
  save(into: Int32Array): void {
    const s = this.s;
    into[0] = s[0] as number; into[1] = s[1] as number; into[2] = s[2] as number; into[3] = s[3] as number;
  }

  /** Back to the state `save` kept in `from`: the same numbers again. */
  restore(from: Int32Array): void {
    const s = this.s;
    s[0] = from[0] as number; s[1] = from[1] as number; s[2] = from[2] as number; s[3] = from[3] as number;
  }

  /**
   * A stream of its own, from this one's state mixed with constants and stepped 20 times (as
   * seedrandom.tychei mixes a seed): this one is not advanced, so what it draws next is the same
   * whether or not the other is made (the chunk engine's stories: engine/story-path.ts).
   */
  split(): Rng {
    const s = this.s;
    const rng = new Rng({ a: (s[0] as number) ^ 0x9e3779b9, b: (s[1] as number) ^ 0x85ebca6b, c: (s[2] as number) ^ 0xc2b2ae35, d: (s[3] as number) ^ 0x27d4eb2f });
    for (let k = 0; k < 20; k++) rng.int32();
    return rng;
  }

  /** Uniform on [0, 1) with 32 random bits (seedrandom's `prng()`). */
  next(): number {
    return unit(this.int32());
  }
}

/**
 * The uniform on [0, 1) of the 32 bits `bits` (an `int32()`), as `next()` makes it. The engine
 * draws `unit(rng.int32())`, not `rng.next()`: where the optimiser runs out of its budget for
 * inlining into a method (the retry path's), a call it leaves returns a double as a heap number,
 * 16 bytes allocated a draw, but `int32` returns a small integer, and `unit` is small enough that
 * V8 inlines it whatever the budget.
 */
export function unit(bits: number): number {
  return (bits >>> 0) * 2.3283064365386963e-10; // 2^-32
}

/** Derives the independent stream of chunk `index` from the root seed (never `seed + i`). */
export function chunkRng(seed: string, index: number): Rng {
  return streamRng(seed, `chunk/${index}`);
}

/**
 * Derives a named stream from the root seed: seedrandom's ARC4 hashes `idem-sim/v1/<seed>/<name>`,
 * two of its doubles make a 53-bit integer, and that integer seeds tychei as seedrandom.tychei
 * seeds it (its high and low words, then 20 steps).
 *
 * The two seedrandom steps are written out here, number for number (test/random.test.ts checks
 * them against seedrandom for seeds short and long): seedrandom's own took 30-70 us a stream, most
 * of it converting its ARC4 state to a string and mixing that into a global pool no stream here
 * reads; a run derives one stream a chunk, and that was 2-4% of the lab's run.
 */
export function streamRng(seed: string, name: string): Rng {
  const arc4 = new Arc4(`idem-sim/v1/${seed}/${name}`);
  const seed53 = Math.floor(arc4.double() * 2 ** 21) * 2 ** 32 + Math.floor(arc4.double() * 2 ** 32);
  return new Rng(tycheiState(seed53));
}

/** seedrandom's ARC4 (RC4 keyed by its `mixkey` of the text, the first 256 bytes dropped) and its doubles. */
class Arc4 {
  private readonly s = new Uint8Array(256);
  private i = 0;
  private j = 0;

  constructor(text: string) {
    // mixkey: each character folds into key[j mod 256] with a running smear; a key byte not yet
    // written counts as 0 in the smear (seedrandom's undefined * 19 is NaN, and NaN ^ x is x).
    const key = new Uint8Array(256);
    let smear = 0;
    for (let j = 0; j < text.length; j++) {
      const m = j & 255;
      if (j > 255) smear ^= (key[m] as number) * 19;
      key[m] = (smear + text.charCodeAt(j)) & 255;
    }
    const keylen = Math.max(1, Math.min(text.length, 256)); // an empty text keys with one 0
    const s = this.s;
    for (let i = 0; i < 256; i++) s[i] = i;
    for (let i = 0, j = 0; i < 256; i++) {
      const t = s[i] as number;
      j = (j + (key[i % keylen] as number) + t) & 255;
      s[i] = s[j] as number;
      s[j] = t;
    }
    for (let k = 0; k < 256; k++) this.byte();
  }

  /** The next byte of the keystream. */
  private byte(): number {
    const s = this.s;
    const i = (this.i = (this.i + 1) & 255);
    const t = s[i] as number;
    const j = (this.j = (this.j + t) & 255);
    s[i] = s[j] as number;
    s[j] = t;
    return s[((s[i] as number) + t) & 255] as number;
  }

  /** seedrandom's `prng()`: 48 bits, then bytes until 52 significant bits, rounded down to 53. */
  double(): number {
    let n = 0;
    for (let k = 0; k < 6; k++) n = n * 256 + this.byte();
    let d = 2 ** 48, x = 0;
    while (n < 2 ** 52) {
      n = (n + x) * 256;
      d *= 256;
      x = this.byte();
    }
    while (n >= 2 ** 53) {
      n /= 2;
      d /= 2;
      x >>>= 1;
    }
    return (n + x) / d;
  }
}

/** seedrandom.tychei's state from an integer seed: its high and low words, then 20 steps. */
function tycheiState(seed: number): TycheState {
  const rng = new Rng({ a: (seed / 0x100000000) | 0, b: seed | 0, c: 2654435769 | 0, d: 1367130551 });
  for (let k = 0; k < 20; k++) rng.int32();
  return rng.state();
}
