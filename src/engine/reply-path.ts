/**
 * The retry path's commonest group, written straight: its first reply lost, its first retry
 * answered by the key store with the stored success, in time (about half of the lab's groups that
 * are not simple at a keyed scope). A layer of the engine's one class (engine-state.ts says why)
 * over the retry path (retry-path.ts), which it must agree with bit for bit: it makes the same
 * decisions by the same methods in the same order (draws.ts), so the same draws, and counts what
 * `countRetried` counts for that group. Where the group turns out otherwise (its retry's request or
 * reply lost, its record expired, a deadline, a replay...) it rewinds the stream and says so, and
 * the retry path takes the group from its start. test/retry-path.test.ts compares chunks with both
 * against the general model, so a rule added to the retry path that this pattern meets must be
 * added here too, or made a reason to rewind.
 */
import { binKey } from './bins.js';
import type { Params } from './compile.js';
import { D_REPLAY, D_REPLY } from './draws.js';
import { C } from '../model/counters.js';
import { KEY_LASTS, MAX_ATTEMPTS } from './retry-server.js';
import { RetryPath } from './retry-path.js';

export class ReplyPath extends RetryPath {
  /** Groups this shortcut settled, over this simulator's chunks (tests read it, to know it ran). */
  answeredGroups = 0;

  /**
   * Whether the shortcut may take a group whose uniform `u` under `p` says its first reply is lost:
   * on the retry path's own ground (`retryPath`), in steady time, with no series to keep, a key the
   * retry carries too, a retry to make, and room under the chunk's bound on work. Apart from
   * `answeredRetry`, and small: a caller tests it inline and calls the shortcut only for such a group
   * (inlined where every group not simple asked it, the shortcut cost mission 2, whose groups time
   * out, 9%).
   */
  protected lostReply(p: Params, u: number): boolean {
    const reach = p.reach;
    return u < (reach[D_REPLY] as number) && u >= (reach[D_REPLAY] as number) && this.regimes === null && this.series === null && holdsKey(p) && p.retries >= 1 && this.totals.work + MAX_ATTEMPTS <= this.maxWork;
  }

  /**
   * Group `a`, whose first reply `lostReply` says is lost by its uniform `u` under `p`: true where its
   * first retry got the stored success (its counts are in the totals), false with the stream as it was.
   */
  protected answeredRetry(p: Params, a: number, u: number): boolean {
    this.rng.save(this.saved);
    const arrival = this.arrivals[a] as number;
    // The first attempt, as the script settles it: no twin, its request through, the handler run in time, its reply lost.
    this.script(p, u);
    let fits = !this.twinDrawn() && !this.requestLost();
    this.drawHandlerDelay(this.handlerDelay, 0);
    const delay = this.handlerDelay[0] as number;
    fits = fits && delay <= p.timeout && this.outcomeDraw() >= p.crashCut && this.replyLost();
    this.endScript();
    // Its retry, after the timeout and the backoff, found the success stored at `done` still live.
    const done = arrival + delay;
    const s = arrival + p.timeout + this.jittered(p.backoff[1] as number);
    fits = fits && s - arrival <= p.deadline && !this.requestLost() && s >= done && s < done + p.retention;
    const replyAfter = s - s + p.fastReply;
    fits = fits && replyAfter <= p.timeout && !this.replyLost() && !this.replayDrawn(0);
    if (!fits) {
      this.rng.restore(this.saved);
      return false;
    }
    this.countAnswered(p, arrival, done, binKey(s + replyAfter - arrival));
    return true;
  }

  /** The group into the chunk's totals as `countRetried` counts it: 2 attempts, the first unknown, 1 execution, 1 key row, 1 stored result replayed, one call. */
  private countAnswered(p: Params, arrival: number, done: number, key: number): void {
    const t = this.totals;
    t.work += 2;
    t.handlerRuns++;
    t.unknownAttempts++;
    t.callLatency.countKey(key);
    const sum = t.sum, sumSq = t.sumSq;
    sum[C.attempts]! += 2; sumSq[C.attempts]! += 4;
    sum[C.dedup_hits]! += 1; sumSq[C.dedup_hits]! += 1;
    sum[C.keys]! += 1; sumSq[C.keys]! += 1;
    sum[C.executions]! += 1; sumSq[C.executions]! += 1;
    t.actionLatency.countKey(key);
    t.actions++;
    t.grid.addRow(p.atomic ? arrival : done, done + p.retention);
    this.answeredGroups++;
  }
}

/** Whether the key the first attempt wrote under is the one its retry carries (attempt.ts `keyOf`): the same call's, text's or action's. */
function holdsKey(p: Params): boolean {
  const lasts = KEY_LASTS[p.scope];
  return lasts === 'call' || lasts === 'text' || lasts === 'action';
}
