/**
 * A simple group's latency bin read from its uniform, for the chunk engine's fast path
 * (engine.ts): a bin key (bins.ts) for each of QUICK_ENTRIES equal ranges of the uniform, where
 * every simple group whose uniform falls in the range lands in that one bin.
 *
 * Why it is exact. A simple group's latency is L(u) = withinTimeout(cut.belowQuick(u / P), p),
 * P its chance (draws.ts), and its bin binKey((s + L) − s) for its arrival s in the chunk. In a
 * range the table's cells draw (`LatencyCut.quickBetween`), L rises with u: u / P rises, the
 * cells' cubics rise, and so does the cap. So every L of the range lies between the L of its
 * first and of its last uniform (u takes 2^32 values, rng.ts), give or take the rounding of the
 * cubics, a few units in the last place; and (s + L) − s is L within a unit in the last place of
 * s + L (the sum and then the difference each round by at most half of one), 2^-22 ms while
 * s + L < SPAN_MS (the engine checks a chunk's last arrival
 * plus the timeout against it). binKey rises with its value between BINNED_LOW and BINNED_HIGH.
 * So when the first L less MARGIN and the last L plus MARGIN (which is more than both roundings)
 * have one key, every group of the range has it, and the fast path counts it without drawing a
 * latency: a chunk's bins are the same numbers, bit for bit (test/quick-keys.test.ts, and
 * test/fast-path.test.ts against the general model).
 *
 * A range is filled the first time a simple group falls in it: 2^14 ranges of 2^18 uniforms, at
 * most 64 KB, of which a run fills those it meets. A bin is about 1% of its latencies wide (3 ms
 * at 300 ms) and a range of the lab's (median 300 ms, sigma 0.6, cut at 1 s) some 0.01 ms near
 * the median, wider in the tails: 2.2% of the lab's ranges hold a bin's edge and are left to
 * binKey (6.6% of mission 2's, whose timeout cuts its latency below the median).
 */
import { binKey, BINNED_HIGH, BINNED_LOW } from './bins.js';
import type { Params } from './compile.js';
import { D_NONE, withinTimeout } from './draws.js';

/** Ranges of the uniform: u·QUICK_ENTRIES, truncated, is u's. */
export const QUICK_ENTRIES = 1 << 14;
/** A range not filled yet; a range whose simple groups do not all land in one bin (or are not all simple, or not all drawn by the cells). Every key is above both. */
export const UNFILLED = -(2 ** 31), MIXED = UNFILLED + 1;
/** The latest a chunk's arrival plus the timeout may be (ms) for the keys to hold in it; past it a chunk's groups take binKey. */
export const SPAN_MS = 2 ** 31;
/** Beyond both roundings (see above): 16 times the first, and in relative terms some 2^12 units in the last place of L. */
const MARGIN_MS = 2 ** -18, MARGIN_RELATIVE = 2 ** -40;
/** The spacing of the uniforms (rng.ts `next`: 32 bits). */
const U_STEP = 2 ** -32;

/** The ranges' keys under one set of parameters, filled as groups meet them. */
export class QuickKeys {
  readonly keys = new Int32Array(QUICK_ENTRIES).fill(UNFILLED);

  constructor(private readonly p: Params) {}

  /** Range e's key (or MIXED), kept. */
  fill(e: number): void {
    this.keys[e] = this.keyOf(e);
  }

  /** The key every simple group of range e lands in, or MIXED. */
  keyOf(e: number): number {
    const p = this.p;
    const simpleP = p.reach[D_NONE] as number;
    const first = e / QUICK_ENTRIES, last = (e + 1) / QUICK_ENTRIES - U_STEP;
    if (!(last < simpleP)) return MIXED;
    // The expressions the engine's loop computes (engine.ts, simulateSpan).
    const v0 = first / simpleP, v1 = last / simpleP;
    if (!p.cut.quickBetween(v0, v1)) return MIXED;
    const low = withinTimeout(p.cut.belowQuick(v0), p), high = withinTimeout(p.cut.belowQuick(v1), p);
    const margin = Math.max(MARGIN_MS, high * MARGIN_RELATIVE);
    if (!(low - margin >= BINNED_LOW && high + margin < BINNED_HIGH)) return MIXED;
    const key = binKey(low - margin);
    return key === binKey(high + margin) ? key : MIXED;
  }
}

/** Keys of no range: for a chunk whose times pass SPAN_MS (its groups take binKey). */
export const NO_QUICK_KEYS = new Int32Array(QUICK_ENTRIES).fill(MIXED);
