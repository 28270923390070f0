/**
 * The random decisions of the general model (group.ts, attempt.ts, calls.ts), each written once,
 * and the one uniform that settles a group's first decisions together. `Draws` is the bottom
 * layer of the engine's one class (engine-state.ts says why it is one class).
 *
 * A simple group (no twin, its first attempt executed and answered in time, no replay after it;
 * about 96% of the lab's) meets six decisions, in the general model's order:
 *
 *   D_TWIN      twinDrawn         simulateGroup (group.ts), before the primary's first call
 *   D_REQUEST   requestLost       sendAttempt (attempt.ts)
 *   D_LATENCY   drawHandlerDelay  serve (attempt.ts): at most the timeout
 *   D_OUTCOME   outcomeDraw       execute (attempt.ts): the handler's success
 *   D_REPLY     replyLost         sendAttempt, once the reply left in time
 *   D_REPLAY    replayDrawn       stepEnded (calls.ts) of the successful call
 *
 * Drawing each of them costs a uniform apiece. Instead, where a group's first decisions all meet
 * the same parameters (engine.ts, coupled.ts), one uniform `u` settles them: decision k passes
 * with chance pass(k) (independent of the others), so the chance that the first k pass is
 * reach[k] = pass(0)···pass(k − 1), and `u` lands in [reach[k + 1], reach[k]) exactly when k is
 * the first to fail, or below reach[6] when the group is simple. `script` keeps that verdict;
 * the decision methods below then read it rather than draw, until the decision it ends with:
 * those before the first failure pass, that one fails, and everything after is drawn as usual.
 * A passing latency is drawn from the latency given that it is within the timeout, a failing
 * one from the latency given that it is not (model/latency/form.ts, `LatencyCut`); a simple
 * group's from u / reach[6] (uniform given that it is simple), so that it takes one uniform in
 * all, and the first value another verdict needs (a latency, or the failing outcome's error or
 * crash) from u's place in its interval, a uniform of its own given the verdict. The engine's
 * fast path settles simple groups without these methods, from the same numbers (engine.ts):
 * test/fast-path.test.ts checks that chunks come out the same with and without it.
 *
 * Every decision draws only when its chance is not zero, and a script never settles a
 * decision of chance zero as failed, so a scenario whose chance is zero draws nothing for it.
 */
import type { Params } from './compile.js';
import { unit, Rng } from '../random/rng.js';

/** The decisions of a simple group, in order (see above); D_NONE: none fails. */
export const D_TWIN = 0, D_REQUEST = 1, D_LATENCY = 2, D_OUTCOME = 3, D_REPLY = 4, D_REPLAY = 5, D_NONE = 6;
/** No script in force; no uniform left from it. */
const OFF = -1, NONE_LEFT = -1;

export class Draws {
  /** The chunk's stream (set per chunk). */
  protected rng: Rng = new Rng({ a: 0, b: 0, c: 0, d: 0 });
  /**
   * The parameters in force: `base`, or during an incident those of its window (incidents.ts),
   * set where an attempt is sent and where a step ends (attempt.ts, calls.ts).
   */
  protected p: Params;
  /**
   * The last decision the group's script settles (OFF: none in force), the one that fails
   * (D_NONE: none), and a uniform left from the script's (NONE_LEFT: none, or used): a simple
   * group's latency draws from it, and so does the first value a script's other verdicts need.
   */
  private scriptLast = OFF;
  private scriptFail = D_NONE;
  private scriptV = NONE_LEFT;

  constructor(protected readonly base: Params) {
    this.p = base;
  }

  /**
   * The group's first decisions settled by the uniform `u` under `p` (the parameters they all
   * meet): kept for the decision methods, which read them until the last one it settles.
   */
  protected script(p: Params, u: number): void {
    const reach = p.reach;
    if (u < (reach[D_NONE] as number)) {
      this.scriptFail = D_NONE;
      this.scriptLast = p.lastDecision;
      this.scriptV = u / (reach[D_NONE] as number);
      return;
    }
    let k = D_TWIN;
    while (u < (reach[k + 1] as number)) k++;
    this.scriptFail = k;
    this.scriptLast = k;
    // Given that k fails first, u is uniform on [reach[k + 1], reach[k]): its place there is a
    // uniform of its own, kept where that interval leaves it at least 24 of u's 32 bits.
    const width = (reach[k] as number) - (reach[k + 1] as number);
    this.scriptV = width >= 1 / 256 ? (u - (reach[k + 1] as number)) / width : NONE_LEFT;
  }

  /**
   * A simple group's script from `v`, its uniform given that it is simple (script's `u / reach[6]`),
   * given directly: a counted group's story (story-path.ts) is told from a v of its own.
   */
  protected scriptSimple(p: Params, v: number): void {
    this.scriptFail = D_NONE;
    this.scriptLast = p.lastDecision;
    this.scriptV = v;
  }

  /** The script's uniform left, once (NONE_LEFT after), or a new draw. */
  private leftOrDrawn(): number {
    const v = this.scriptV;
    this.scriptV = NONE_LEFT;
    return v === NONE_LEFT ? unit(this.rng.int32()) : v;
  }

  /** Whether the script settles decision `d` as failed (read only while a script is in force); past its last decision, the script ends. */
  private settled(d: number): boolean {
    if (d >= this.scriptLast) this.scriptLast = OFF;
    return d === this.scriptFail;
  }

  /** Whether the group has a twin (a second action of the same business identity). */
  protected twinDrawn(): boolean {
    if (this.scriptLast !== OFF) return this.settled(D_TWIN);
    return this.p.twinP > 0 && unit(this.rng.int32()) < this.p.twinP;
  }

  /** Whether an attempt's request is lost on the way to the server. */
  protected requestLost(): boolean {
    if (this.scriptLast !== OFF) return this.settled(D_REQUEST);
    return this.p.requestLoss > 0 && unit(this.rng.int32()) < this.p.requestLoss;
  }

  /**
   * The handler's time (ms) for a request that runs it, with the window's multiplier, into
   * `into[i]`: from one uniform, on the side of the timeout the script settled, or on either by
   * its chance. (Into an array: a double returned from a call the optimiser does not inline is
   * boxed, an allocation per attempt.)
   */
  protected drawHandlerDelay(into: Float64Array, i: number): void {
    const p = this.p;
    const cut = p.cut;
    if (this.scriptLast !== OFF) {
      if (this.settled(D_LATENCY)) {
        into[i] = overTimeout(cut.above(this.leftOrDrawn()) * p.latencyScale, p.timeout);
        return;
      }
      into[i] = withinTimeout(cut.below(this.leftOrDrawn()), p);
      return;
    }
    const u = unit(this.rng.int32());
    into[i] = (u < cut.pBelow ? cut.below(u / cut.pBelow) : cut.above((u - cut.pBelow) / cut.pAbove)) * p.latencyScale;
  }

  /** The handler's fate as one uniform: below `errorRate` a 5xx, below `crashCut` a crash, else a success (1 when neither can happen). */
  protected outcomeDraw(): number {
    if (this.scriptLast !== OFF) return this.settled(D_OUTCOME) ? this.p.crashCut * this.leftOrDrawn() : 1;
    return this.p.crashCut > 0 ? unit(this.rng.int32()) : 1;
  }

  /** Whether a reply the server sent in time is lost on the way back. */
  protected replyLost(): boolean {
    if (this.scriptLast !== OFF) return this.settled(D_REPLY);
    return this.p.replyLoss > 0 && unit(this.rng.int32()) < this.p.replyLoss;
  }

  /** Whether the agent's runtime crashes after a call and replays it, for an action already replayed `replays` times. */
  protected replayDrawn(replays: number): boolean {
    if (this.scriptLast !== OFF) return this.settled(D_REPLAY);
    return replays < this.p.maxReplays && this.p.crashP > 0 && unit(this.rng.int32()) < this.p.crashP;
  }

  /**
   * The script ends with the group's first steps (each engine calls this after them), so that it
   * can never settle another group's or a later attempt's decisions. It is set only where a
   * group's first attempt meets each decision in order up to the one the script ends with (no
   * down key store, no guard, a free worker): a decision skipped and a later one read while the
   * script is in force would read a verdict conditioned on the skipped one.
   */
  protected endScript(): void {
    this.scriptLast = OFF;
  }
}

/**
 * A handler latency the script settled as within the timeout, from its draw `drawn` (the
 * latency's own ms), with the window's multiplier: at most the timeout, where the multiplier
 * rounds it past. The one expression of it, in the general model and both engines' fast paths,
 * so that a simple group gets the same number whichever settles it. Math.min, not a test: a
 * timeout of whole ms is a small integer, and beside it in a conditional the latency was boxed
 * (a heap number allocated each simple group).
 */
export function withinTimeout(drawn: number, p: Params): number {
  return Math.min(drawn * p.latencyScale, p.timeout);
}

/** A latency the script settled as past the timeout, kept past it when the window's multiplier rounds it back onto the timeout. */
function overTimeout(delay: number, timeout: number): number {
  return delay > timeout ? delay : timeout + Math.max(Number.MIN_VALUE, timeout * Number.EPSILON);
}

/**
 * The chance that each of a simple group's decisions fails, in order (see the module's
 * comment), under `p` without its script fields; `latencyOver` is P(handler latency > the
 * timeout). The replay's only where a replay can follow a first call (max_replays > 0).
 */
export function failChances(p: Omit<Params, 'reach' | 'lastDecision'>, latencyOver: number): number[] {
  return [p.twinP, p.requestLoss, latencyOver, p.crashCut, p.replyLoss, p.maxReplays > 0 ? p.crashP : 0];
}

/** reach[k]: the chance that decisions 0..k − 1 all pass (reach[0] = 1, reach[6] a simple group's); the latency's from `latencyWithin`, which keeps its digits. */
export function reachOf(fail: readonly number[], latencyWithin: number): Float64Array<ArrayBuffer> {
  const reach = new Float64Array(D_NONE + 1);
  reach[0] = 1;
  for (let k = 0; k < D_NONE; k++) reach[k + 1] = (reach[k] as number) * (k === D_LATENCY ? latencyWithin : 1 - (fail[k] as number));
  return reach;
}

/**
 * The last decision a simple group's script settles: the last that can fail, and at least its
 * latency (drawn from the script's uniform). A chance too small to move 1 − chance off 1 still
 * counts: the general model draws for any chance above zero, so the script must settle it.
 */
export function lastDecisionOf(fail: readonly number[]): number {
  let last = D_LATENCY;
  for (let k = D_LATENCY + 1; k < D_NONE; k++) if ((fail[k] as number) > 0) last = k;
  return last;
}
