/**
 * The random decisions a simple group passes, each written once: the general model (group.ts,
 * attempt.ts, calls.ts) calls these methods where it decides, and the fast path (engine.ts,
 * `simulateArrivals`) draws from `simpleChances`, the same chances in the same order. Each
 * decision draws only when its chance is not zero, so both paths take the same numbers from
 * the stream whatever the scenario. `Draws` is the bottom layer of the engine's one class
 * (engine-state.ts says why it is one class).
 *
 * A simple group (no twin, its first attempt executed and answered in time, no replay after
 * it) draws, in the general model's order:
 *
 *   twinDrawn      simulateGroup (group.ts), before the primary's first call
 *   requestLost    sendAttempt (attempt.ts); an ORIGINAL call's startCall draws nothing
 *   latency        sendAttempt: the handler runs (a group's first lookup finds nothing)
 *   outcomeDraw    execute (attempt.ts): an error, a crash, or the handler's success
 *   replyLost      sendAttempt, once the reply left in time
 *   replayDrawn    endCall (calls.ts) of the successful call (a success neither re-plans nor verifies)
 *
 * The fast path does not call these methods: it walks `simpleChances`, the same chances in
 * the same order as two short lists, which measured about 6% faster on the lab defaults than
 * the chain of calls (each call loads and tests its chance anew, per group). So the order is
 * written twice, here: by the general model's control flow and by `simpleChances` below it.
 * A new draw anywhere a simple group passes, or a reordering, needs its line there. Forgotten,
 * the fast path takes another count of numbers for its groups than the general model, every
 * later group of the chunk sees other numbers, and test/fast-path.test.ts fails: it compares
 * whole chunk outputs with and without the fast path on the lab defaults (scope intent, a
 * full chunk) and on 300 random scenarios of test/arbitrary.ts, which must give the new
 * draw's chance non-zero values for the test to see it. (Tried: swapping two chances of
 * `after`, or letting an ORIGINAL call draw the argument drift, each fails it.)
 */
import type { Params } from './compile.js';
import { Rng } from '../random/rng.js';

export class Draws {
  /** The chunk's stream (set per chunk). */
  protected rng: Rng = new Rng({ a: 0, b: 0, c: 0, d: 0 });
  /**
   * The parameters in force: `base`, or during an incident those of its window (incidents.ts),
   * set where an attempt is sent and where a step ends (attempt.ts, calls.ts).
   */
  protected p: Params;

  constructor(protected readonly base: Params) {
    this.p = base;
  }

  /** Whether the group has a twin (a second action of the same business identity). */
  protected twinDrawn(): boolean {
    return this.p.twinP > 0 && this.rng.next() < this.p.twinP;
  }

  /** Whether an attempt's request is lost on the way to the server. */
  protected requestLost(): boolean {
    return this.p.requestLoss > 0 && this.rng.next() < this.p.requestLoss;
  }

  /** The handler's fate as one uniform: below `errorRate` a 5xx, below `crashCut` a crash, else a success (1 when neither can happen). */
  protected outcomeDraw(): number {
    return this.p.crashCut > 0 ? this.rng.next() : 1;
  }

  /** Whether a reply the server sent in time is lost on the way back. */
  protected replyLost(): boolean {
    return this.p.replyLoss > 0 && this.rng.next() < this.p.replyLoss;
  }

  /** Whether the agent's runtime crashes after a call and replays it, for an action already replayed `replays` times. */
  protected replayDrawn(replays: number): boolean {
    return replays < this.p.maxReplays && this.p.crashP > 0 && this.rng.next() < this.p.crashP;
  }
}

/** A simple group's draws, as the fast path walks them: the chances each must miss, without the zero ones (those draw nothing). */
export interface SimpleChances {
  /** Before the handler's latency: twinDrawn, requestLost. */
  before: Float64Array;
  /** After it: outcomeDraw (a simple group's success misses both the error and the crash), replyLost, replayDrawn of the first call. */
  after: Float64Array;
}

/** The fast path's lists, in the order of the methods above (see the module's comment). */
export function simpleChances(p: Params): SimpleChances {
  const drawing = (...chances: number[]) => Float64Array.from(chances.filter((x) => x > 0));
  return {
    before: drawing(p.twinP, p.requestLoss),
    after: drawing(p.crashCut, p.replyLoss, p.maxReplays > 0 ? p.crashP : 0),
  };
}
