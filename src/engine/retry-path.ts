/**
 * The retry path: a group that is not simple (draws.ts), simulated on a small state of its own
 * rather than through the general model's per-actor arrays, write log and live rows, while it
 * stays within what nearly every such group does. One action, no twin; its requests are lost, or
 * run the handler (a success or a 5xx), or are answered by the key store (a stored result, a 409 on
 * the claim, a 422); with its retries, re-plans and the calls' ends as the general model has them
 * (attempt.ts, calls.ts, group.ts). Two layers of the engine's one class (engine-state.ts says why):
 * the server's side (retry-server.ts) and, here, the client's, which the chunk engine asks for each
 * group its fast path does not settle (engine.ts, count-path.ts `simulateScripted`), after its
 * commonest group's shortcut (reply-path.ts).
 *
 * The same numbers, bit for bit: every random decision is drawn by the general model's own methods
 * (draws.ts) in its order, every time is the same sum, and the counts go to the chunk's totals as
 * `finishAction` sends them. A group that leaves the pattern (a twin, a crash, a second execution
 * under one key before the first's result, whose rows would merge, a runtime crash and its replay,
 * more than MAX_ATTEMPTS attempts or MAX_CALLS calls) rewinds the stream to the group's start and
 * goes through the general model instead. test/retry-path.test.ts compares chunks with it and without
 * it: every scope and claim, groups that stay and that leave, 5xx, windows, series, random scenarios.
 *
 * Where it runs (`retryPathFits`): the chunk engine's fast path (a tracer turns it off to hear the
 * general model's every step), without a trigger. In an incident window it takes the parameters in
 * force at each send and step end as the general model does, and leaves where the key store is down;
 * with series it keeps the group's counts until it stays. Why: about 4% of the lab's groups are not
 * simple and took a third of its time through the general model, some 440 ns each, most of mission
 * 2's groups are not, nor most of a slowdown's (docs/performance.md, "The retry path").
 */
import { binKey } from './bins.js';
import { CONFLICT_409, MISMATCH_422, NO_REPLY, OK } from './attempt.js';
import { ORIGINAL, REPLAN } from './calls.js';
import { D_LATENCY, D_OUTCOME, D_REPLAY, D_REPLY, D_REQUEST } from './draws.js';
import type { Params } from './compile.js';
import { C } from '../model/counters.js';
import { SER } from '../model/series.js';
import { KEY_LASTS, LEAVES, MAX_ATTEMPTS, MAX_CALLS, RetryServer } from './retry-server.js';
import { uniform } from '../random/uniform.js';
import { unit } from '../random/rng.js';

/** Whether groups under `p` may take the retry path: `plain` (the fast path on, with no hooks: a tracer hears the general model), no trigger, a scope it takes. */
export function retryPathFits(p: Params, plain: boolean): boolean {
  return plain && p.trigger === null && KEY_LASTS[p.scope] !== 'leave';
}

export class RetryPath extends RetryServer {
  /** Whether this simulator's groups may take the path (set by the chunk engine: `retryPathFits`). */
  protected retryPath = false;
  /** Groups that stayed on the path, over this simulator's chunks (tests read it, to know the path ran). */
  retriedGroups = 0;
  /** The stream's state at the group's start, to rewind to (the shortcut's too, reply-path.ts: the two never hold it at once). */
  protected readonly saved = new Int32Array(4);
  /** The latency bins of the group's calls, counted once the group stays on the path. */
  private readonly callKeys = new Int32Array(MAX_CALLS);
  // The group's client side (calls.ts, group.ts): its attempts, its calls, the last one's end and latency bin, and its tallies.
  private sent = 0;
  private calls = 0;
  private unknownCalls = 0;
  private unknownAttempts = 0;
  private readonly lastCall = new Float64Array(2); // its return, its latency
  private lastKey = 0;

  /**
   * Group `a`, not simple by its uniform `u` under `p`, on the retry path: true when it stayed on
   * it (its counts are in the totals), false when the stream is back at the group's start. Only a
   * group whose first decision to fail is its request, its latency, its outcome (a 5xx) or its
   * reply can stay.
   */
  protected retried(p: Params, a: number, u: number): boolean {
    const reach = p.reach;
    // The first to fail: the request or the latency, the outcome where it can be a 5xx, or the reply.
    const fails = u < (reach[D_REQUEST] as number) && (u >= (reach[(p.errorRate > 0 ? D_OUTCOME : D_LATENCY) + 1] as number) || (u < (reach[D_REPLY] as number) && u >= (reach[D_REPLAY] as number)));
    if (!fails || this.totals.work + MAX_ATTEMPTS > this.maxWork) return false;
    this.rng.save(this.saved);
    this.script(p, u);
    const stayed = !this.twinDrawn() && this.retryGroup(this.arrivals[a] as number);
    this.endScript();
    if (stayed) {
      this.retriedGroups++;
      this.countRetried(this.arrivals[a] as number);
    } else {
      this.rng.restore(this.saved);
    }
    return stayed;
  }

  /**
   * The group's one action from `arrival`, its calls and attempts as the general model runs them
   * (attempt.ts, calls.ts), under the parameters in force at each send and step end (an incident
   * window's, as `sendAttempt` and `stepEnded` take them); false where it leaves the path.
   */
  private retryGroup(arrival: number): boolean {
    const rng = this.rng;
    const regimes = this.regimes;
    this.beginRetry(arrival);
    // The action's free text, its call and attempt (calls.ts startAction, startCall), its attempts and those with no reply in time.
    let text = 0, nextText = 1, kind = ORIGINAL, callStart = arrival, s = arrival, attempt = 0, replans = 0, sent = 0, unknown = 0;
    for (;;) {
      if (++sent > MAX_ATTEMPTS) return false;
      if (regimes !== null) this.p = regimes.at(this.offset + s);
      const p = this.p;
      this.served[0] = s;
      const status = this.requestLost() ? NO_REPLY : this.serveRetried(p, p.fpText ? text : 0, kind);
      if (status === LEAVES) return false;
      // The client's side (clientLearns, afterAttempt).
      const replyAfter = status === NO_REPLY ? 0 : (this.served[1] as number);
      const received = status !== NO_REPLY && replyAfter <= p.timeout && !this.replyLost();
      if (!received) unknown++;
      if (this.series !== null) this.noteAt(SER.attempts, s);
      if (this.series !== null && !received) this.noteAt(SER.timeouts, s + p.timeout);
      const end = received ? s + replyAfter : s + p.timeout;
      const got = received ? status : NO_REPLY;
      if (got !== OK && got !== MISMATCH_422) {
        const retry = attempt + 1;
        if (retry <= p.retries) {
          let wait = this.jittered(p.backoff[retry] as number);
          if (got === CONFLICT_409 && wait < p.retryAfter) wait = p.retryAfter;
          const next = end + wait;
          if (next - callStart <= p.deadline) { attempt = retry; s = next; continue; }
        }
      }
      // The call's end (endCall): a re-plan, or the step's end; past MAX_CALLS, before it counts anything.
      if (this.calls === MAX_CALLS) return false;
      if (got === NO_REPLY || got === CONFLICT_409) this.unknownCall(end);
      const latency = end - callStart;
      this.callKeys[this.calls++] = this.lastKey = binKey(latency);
      this.lastCall[0] = end; this.lastCall[1] = latency;
      let stepEnd = end;
      if (got !== OK && replans < p.maxReplans && p.replanP > 0 && unit(rng.int32()) < p.replanP) {
        replans++;
        const next = end + uniform(rng, p.replanMin, p.replanMax);
        stepEnd = next; // where verify_before_replan finds the action done, the step ends when the re-plan was due
        if (!(p.verify && this.firstAt <= next)) {
          kind = REPLAN;
          if (KEY_LASTS[p.scope] === 'call') this.held = false; // a new call, a new key
          if (p.drift > 0 && unit(rng.int32()) < p.drift) {
            text = nextText++;
            if (KEY_LASTS[p.scope] === 'text') this.held = false; // new text, a new key
          }
          attempt = 0; callStart = next; s = next;
          continue;
        }
      }
      this.sent = sent; this.unknownAttempts = unknown;
      if (regimes !== null) this.p = regimes.at(this.offset + stepEnd); // a deploy's window applies to the steps that end in it
      return !this.replayDrawn(0); // a runtime crash leaves: its replay
    }
  }

  /** The group's state, empty, for its action arriving at `arrival`. */
  private beginRetry(arrival: number): void {
    this.resetServer();
    this.calls = 0; this.unknownCalls = 0;
    if (this.series !== null) this.noteAt(SER.arrivals, arrival);
  }

  /** The call ended at `end` with its outcome unknown (calls.ts endCall): a rare step, kept apart. */
  private unknownCall(end: number): void {
    this.unknownCalls++;
    if (this.series !== null) this.noteAt(SER.unknown_outcomes, end);
  }

  /**
   * The group that stayed, arrived at `arrival`, into the chunk's totals as `finishAction` counts an
   * action (group.ts), its rows to the grid (the group's flush), its counts to the series.
   */
  private countRetried(arrival: number): void {
    const t = this.totals;
    const executions = this.executions, rows = this.keyRows, sent = this.sent;
    t.work += sent;
    t.handlerRuns += this.handlerRuns;
    t.overTimeout += this.over;
    t.unknownAttempts += this.unknownAttempts;
    for (let c = 0; c < this.calls; c++) t.callLatency.countKey(this.callKeys[c] as number);
    // ChunkTotals.count's sums written out (a call each was a tenth of the path's time); adding 0 leaves a sum as it is.
    const sum = t.sum, sumSq = t.sumSq;
    sum[C.attempts]! += sent; sumSq[C.attempts]! += sent * sent;
    sum[C.mismatches_422]! += this.mismatches; sumSq[C.mismatches_422]! += this.mismatches * this.mismatches;
    sum[C.conflicts_409]! += this.conflicts; sumSq[C.conflicts_409]! += this.conflicts * this.conflicts;
    sum[C.dedup_hits]! += this.dedups; sumSq[C.dedup_hits]! += this.dedups * this.dedups;
    sum[C.unknown_outcomes]! += this.unknownCalls; sumSq[C.unknown_outcomes]! += this.unknownCalls * this.unknownCalls;
    sum[C.keys]! += rows; sumSq[C.keys]! += rows * rows;
    sum[C.executions]! += executions; sumSq[C.executions]! += executions * executions;
    this.execFirstKind[0] = this.firstKind;
    this.execByKind[0] = executions - this.byReplan;
    this.execByKind[1] = this.byReplan;
    this.execByKind[2] = 0;
    this.countExecutions(executions, this.stored, 0, 0);
    const latency = (this.lastCall[0] as number) - arrival;
    t.actionLatency.countKey(latency === this.lastCall[1] ? this.lastKey : binKey(latency));
    t.actions++;
    for (let r = 0; r < rows; r++) t.grid.addRow(this.rowStart[r] as number, this.rowEnd[r] as number);
    const sr = this.series;
    if (sr === null) return;
    for (let e = 0; e < this.events; e++) sr.add(this.eventOf[e] as number, this.eventAt[e] as number);
    if (executions > 0) sr.add(SER.duplicates, this.firstAt, -1);
    else sr.add(SER.lost, arrival);
  }
}
