/**
 * Latency histogram on the bins of a DDSketch (relative accuracy 0.5%): the hot loop only
 * counts values into the sketch's own bins (one log per value, no objects), and a DDSketch
 * is built from the counts when quantiles are asked for. Counts are integers, so bins from
 * chunks, threads or shards add up to the same numbers in any order.
 */
import { DDSketch } from '@datadog/sketches-js';
import { nextDown, nextUp } from '../model/latency/next-up.js';

/** Relative accuracy of reported quantiles; docs/model.md allows 1%. */
export const SKETCH_RELATIVE_ACCURACY = 0.005;

const MAPPING = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY }).mapping;
// The logarithmic mapping's key is ceil(log2(value) * _multiplier) + _offset (KeyMapping.key
// with LogarithmicMapping._logGamma); written out in binKey so the hot loop can inline it.
// A test checks that the two agree on every bin.
const { _multiplier: MULTIPLIER, _offset: KEY_OFFSET } = MAPPING as unknown as { _multiplier: number; _offset: number };
const MIN_VALUE = MAPPING.minPossible;

/** The bins of one latency metric, in plain serialisable form. */
export interface BinsData {
  /** Key of counts[0]. */
  offset: number;
  counts: number[];
  /** Values too small for a bin (0 ms). */
  zero: number;
}

/** The key of values too small for a bin (0 ms). */
export const ZERO_KEY = -(2 ** 31);

/**
 * The sketch bin of a value: the same key as the library's mapping, without a call. Its common
 * case is small and calls nothing, so that the engine's loops inline it: a double passed to a
 * call the optimiser does not inline is boxed, an allocation per action.
 */
export function binKey(value: number): number {
  F64[0] = value;
  const b = (WORDS[HIGH_WORD]! >> (20 - BUCKET_BITS)) - FIRST_BUCKET; // negative below the table and for negative values
  if (b < 0 || b >= BUCKETS) return logKey(value);
  if (BUCKET_KEY[b] === UNSET) fillBinade(b >> BUCKET_BITS);
  // key if value < split, else key + 1, without a branch: which side of the split a latency
  // falls is a coin toss the processor mispredicts (a branch here cost 9 ns an action). The sign
  // of value − split says it: negative exactly when value < split (a difference of two finite
  // doubles is 0 only when they are equal, and split may be Infinity, giving −Infinity).
  F64[0] = value - BUCKET_SPLIT[b]!;
  return BUCKET_KEY[b]! + 1 + (WORDS[HIGH_WORD]! >> 31);
}

/**
 * The least value whose key is `key` (a bin's lower edge: engine/simple-law.ts finds where a latency
 * crosses each): the formula's inverse, stepped to the exact double by binKey itself.
 */
export function keyStart(key: number): number {
  let v = 2 ** ((key - 1 - KEY_OFFSET) / MULTIPLIER);
  for (let i = 0; i < 64 && binKey(v) >= key; i++) v = nextDown(v);
  for (let i = 0; i < 64 && binKey(v) < key; i++) v = nextUp(v);
  return v;
}

/** binKey by its formula. */
export function logKey(value: number): number {
  return value > MIN_VALUE ? Math.ceil(Math.log2(value) * MULTIPLIER) + KEY_OFFSET : ZERO_KEY;
}

/*
 * binKey without a logarithm (Math.log2 is a call that took about a fifth of the engine's
 * time per action): for values in [2^LOW_EXP, 2^HIGH_EXP) ms, the exponent and the top
 * BUCKET_BITS bits of the mantissa pick a bucket. A bucket spans less than one bin (at most
 * log2(1 + 2^-7) * MULTIPLIER = 0.78 of one), so it holds at most one bin boundary: the
 * bucket's table entry is its lowest value's key and the first value of the next key, found
 * from the formula's inverse and stepped to the exact double by logKey itself, so binKey gives
 * logKey's bins exactly (test/scale.test.ts checks the values around every boundary). A
 * binade's buckets are filled when one of them is first used: all of them would add about 8 ms
 * to every start, and one at a time would call the filling often enough, while the engine warms
 * up, for the optimiser to inline it into binKey, which then grew too large to inline into the
 * engine's loops. Other values take the formula.
 */
const LOW_EXP = -8, HIGH_EXP = 32; // about 4 us to 50 days
/** The values (ms) binKey reads from its table, [BINNED_LOW, BINNED_HIGH): in them it rises with the value, bin by bin. */
export const BINNED_LOW = 2 ** LOW_EXP, BINNED_HIGH = 2 ** HIGH_EXP;
const BUCKET_BITS = 7;
const BUCKETS = (HIGH_EXP - LOW_EXP) << BUCKET_BITS;
const FIRST_BUCKET = (LOW_EXP + 1023) << BUCKET_BITS; // 1023: the exponent bias of a double
const UNSET = ZERO_KEY; // no bucket holds the key of 0
const BUCKET_KEY = new Int32Array(BUCKETS).fill(UNSET);
const BUCKET_SPLIT = new Float64Array(BUCKETS); // the bucket's first value of key BUCKET_KEY + 1, or Infinity
const F64 = new Float64Array(1);
const WORDS = new Int32Array(F64.buffer);
const HIGH_WORD = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 1 : 0; // the word with the sign, exponent and top mantissa bits

/** Bucket b's entry: its lowest value's key, and where the next key starts in it (Infinity: nowhere). */
function fillBucket(b: number): void {
  const exp = LOW_EXP + (b >> BUCKET_BITS);
  const ulp = 2 ** (exp - 52); // spacing of doubles in [2^exp, 2^(exp+1))
  const lo = 2 ** exp * (1 + (b & ((1 << BUCKET_BITS) - 1)) / 2 ** BUCKET_BITS);
  const last = 2 ** (52 - BUCKET_BITS) - 1; // lo + last * ulp is the bucket's last value
  const key = logKey(lo);
  const lastKey = logKey(lo + last * ulp);
  let split = Infinity;
  if (lastKey !== key) {
    if (lastKey !== key + 1) throw new Error(`bin bucket ${b} spans more than one bin boundary`);
    // log2(x) * MULTIPLIER passes key - KEY_OFFSET at 2^((key - KEY_OFFSET) / MULTIPLIER); rounding
    // puts the first double of the next key a few steps from there, which logKey settles.
    const guess = Math.ceil((2 ** ((key - KEY_OFFSET) / MULTIPLIER) - lo) / ulp);
    let at = Math.min(last, Math.max(1, guess));
    while (at > 1 && logKey(lo + (at - 1) * ulp) > key) at--;
    while (logKey(lo + at * ulp) === key) at++;
    split = lo + at * ulp;
  }
  BUCKET_SPLIT[b] = split;
  BUCKET_KEY[b] = key;
}

/** The buckets of binade `e` (values in [2^(LOW_EXP + e), 2^(LOW_EXP + e + 1))). */
function fillBinade(e: number): void {
  for (let b = e << BUCKET_BITS; b < (e + 1) << BUCKET_BITS; b++) fillBucket(b);
}

/** binKey's table range in ms and every bin boundary in it (for tests). */
export function binTable(): { lowest: number; highest: number; boundaries: number[] } {
  for (let e = 0; e < HIGH_EXP - LOW_EXP; e++) if (BUCKET_KEY[e << BUCKET_BITS] === UNSET) fillBinade(e);
  return { lowest: BINNED_LOW, highest: BINNED_HIGH, boundaries: Array.from(BUCKET_SPLIT).filter((x) => x !== Infinity) };
}

/** Bins a fresh histogram allocates; its first key lands in the middle. */
const INITIAL_BINS = 512;

export class LatencyBins {
  private counts = new Float64Array(INITIAL_BINS);
  private offset = 0;
  private used = false;
  zero = 0;

  add(value: number): void {
    if (value > MIN_VALUE) this.addKey(MAPPING.key(value), 1);
    else this.zero++;
  }

  /**
   * Counts one key from `binKey`. The engine counts each call's and action's key here as it
   * goes: small enough to inline into its loop, the common case a bounds check and an increment.
   */
  countKey(key: number): void {
    const i = key - this.offset;
    if (this.used && i >= 0 && i < this.counts.length) this.counts[i]!++;
    else if (key === ZERO_KEY) this.zero++;
    else this.addKey(key, 1);
  }

  /** Counts `n` values of one key from `binKey` (a chunk's counted simple groups: count-path.ts). */
  countKeyTimes(key: number, n: number): void {
    if (key === ZERO_KEY) this.zero += n;
    else this.addKey(key, n);
  }

  /** Empties the histogram, keeping its buffer (the engine reuses one per chunk). */
  reset(): void {
    this.counts.fill(0);
    this.offset = 0;
    this.used = false;
    this.zero = 0;
  }

  /** Adds another histogram's counts. */
  addBins(other: LatencyBins): void {
    this.zero += other.zero;
    if (!other.used) return;
    const counts = other.counts;
    for (let j = 0; j < counts.length; j++) {
      const c = counts[j] as number;
      if (c > 0) this.addKey(other.offset + j, c);
    }
  }

  /** Adds the keys from `binKey` of n values. */
  addKeys(keys: Int32Array, n: number): void {
    for (let k = 0; k < n; k++) this.countKey(keys[k] as number);
  }

  private addKey(key: number, count: number): void {
    let i = key - this.offset;
    if (!this.used) {
      // The first key in the middle (of a reused histogram's buffer too, or it would grow every chunk).
      this.used = true;
      i = this.counts.length >> 1;
      this.offset = key - i;
    } else if (i < 0 || i >= this.counts.length) {
      // Grown to hold the key with 64 bins to spare, doubling. Written here, not in a method of its
      // own: a histogram grows a few times in a process's first chunks, too few for V8 to give such a
      // method type feedback, and the optimised code that inlined it (addBins, addData) was thrown
      // out at the next run's first growth, a fresh histogram's.
      const lo = Math.min(this.offset, key - 64);
      const hi = Math.max(this.offset + this.counts.length, key + 64);
      let size = this.counts.length;
      while (size < hi - lo) size *= 2;
      const next = new Float64Array(size);
      next.set(this.counts, this.offset - lo);
      this.counts = next;
      this.offset = lo;
      i = key - lo;
    }
    this.counts[i] = (this.counts[i] as number) + count;
  }

  get count(): number {
    let n = this.zero;
    for (let i = 0; i < this.counts.length; i++) n += this.counts[i] as number;
    return n;
  }

  /** Adds a histogram's data (a chunk's, each chunk: a plain loop, which the optimiser compiles within a run's first chunks, where a callback to forEach ran unoptimised for runs, 4% of a run). */
  addData(data: BinsData): void {
    this.zero += data.zero;
    const counts = data.counts, offset = data.offset;
    for (let j = 0; j < counts.length; j++) {
      const c = counts[j] as number;
      if (c > 0) this.addKey(offset + j, c);
    }
  }

  toData(): BinsData {
    // A histogram with no key gives what a fresh one always did (offset: its length).
    if (!this.used) return { offset: INITIAL_BINS, counts: [], zero: this.zero };
    let lo = 0;
    let hi = this.counts.length;
    while (lo < hi && this.counts[lo] === 0) lo++;
    while (hi > lo && this.counts[hi - 1] === 0) hi--;
    // A plain loop: Array.from on a typed array goes through its iterator, tens of µs per chunk.
    const counts = new Array<number>(hi - lo);
    for (let j = lo; j < hi; j++) counts[j - lo] = this.counts[j] as number;
    return { offset: this.offset + lo, counts, zero: this.zero };
  }

  /** The q-quantile (DDSketch's rank convention), or null when empty. */
  quantile(q: number): number | null {
    const sketch = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY });
    for (let i = 0; i < this.counts.length; i++) {
      const c = this.counts[i] as number;
      if (c > 0) sketch.store.add(this.offset + i, c);
    }
    sketch.zeroCount = this.zero;
    sketch.count = sketch.store.count + this.zero;
    return sketch.count === 0 ? null : sketch.getValueAtQuantile(q);
  }
}
