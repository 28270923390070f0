/**
 * The retry path: a group that is not simple (draws.ts), simulated on a small state of its own
 * rather than through the general model's per-actor arrays, write log and live rows, while it
 * stays within what nearly every such group does. One action, no twin; its requests are lost, or
 * run the handler with success, or are answered by the key store (the stored result, a 409 on
 * the claim, a 422); with its retries, re-plans and the calls' ends as the general model has them
 * (attempt.ts, calls.ts, group.ts). A layer of the engine's one class (engine-state.ts says why),
 * which the chunk engine's loop asks first for each group its fast path does not settle (engine.ts).
 *
 * The same numbers, bit for bit: every random decision is drawn by the general model's own methods
 * (draws.ts) in its order, every time is the same sum, and the counts go to the chunk's totals as
 * `finishAction` sends them. A group that leaves the pattern (a twin, a 5xx or a crash, a second
 * execution under one key, whose rows would merge, a runtime crash and its replay, more than
 * MAX_ATTEMPTS attempts or MAX_CALLS calls) rewinds the stream to the group's start and goes
 * through the general model instead. test/retry-path.test.ts compares chunks with it and without
 * it: every scope and claim, groups that stay and that leave, windows, series, random scenarios.
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
import { D_LATENCY, D_REPLAY, D_REPLY, D_REQUEST } from './draws.js';
import { S_ATTEMPT, S_BUSINESS, S_CALL, S_INTENT, S_NONE, S_RUN, S_TEXT, type Params, type ScopeCode } from './compile.js';
import { C } from '../model/counters.js';
import { SER } from '../model/series.js';
import { DeliveryModel } from './delivery.js';
import { DONE_OK, NONE, RUNNING } from './write-log.js';
import { uniform } from '../random/uniform.js';

/** The most attempts, and calls, of a group on this path (past them, the general model takes it). */
const MAX_ATTEMPTS = 64, MAX_CALLS = 16;

/**
 * The series' counts a group on the path keeps until it stays: its arrival, at most four an attempt
 * (its send, its timeout, and the store's answer or the handler's execution and duplicate), and one
 * a call (an unknown outcome). Its end's counts go to the series directly (countRetried).
 */
const MAX_EVENTS = 1 + 4 * MAX_ATTEMPTS + MAX_CALLS;

/**
 * How long the key an action's attempts carry lasts, by scope (attempt.ts `keyOf`): the path keeps
 * the record of the current key alone. None (no key); each attempt's own (never looked up); the
 * call's (a re-plan's is new); the free text's (a re-plan that rewrites it has a new one); the
 * action's (intent, business: one for the whole action, with no twin); or a scope the path does not
 * take (a delivery's run, with a trigger). A new scope without its line fails to compile.
 */
const KEY_LASTS: Record<ScopeCode, 'none' | 'attempt' | 'call' | 'text' | 'action' | 'leave'> = {
  [S_NONE]: 'none', [S_ATTEMPT]: 'attempt', [S_CALL]: 'call', [S_INTENT]: 'action', [S_BUSINESS]: 'action', [S_TEXT]: 'text', [S_RUN]: 'leave',
};

/** Whether groups under `p` may take the retry path: `plain` (the fast path on, with no hooks: a tracer hears the general model), no trigger, a scope it takes. */
export function retryPathFits(p: Params, plain: boolean): boolean {
  return plain && p.trigger === null && KEY_LASTS[p.scope] !== 'leave';
}

/** What the server's side of an attempt on the path may return besides a reply: the group leaves the path. */
const LEAVES = -2;

export class RetryPath extends DeliveryModel {
  /** Whether this simulator's groups may take the path (set by the chunk engine: `retryPathFits`). */
  protected retryPath = false;
  /** Groups that stayed on the path, over this simulator's chunks (tests read it, to know the path ran). */
  retriedGroups = 0;
  /** The stream's state at the group's start, to rewind to. */
  private readonly saved = new Int32Array(4);
  /** The latency bins of the group's calls, and its key rows, counted once the group stays on the path. */
  private readonly callKeys = new Int32Array(MAX_CALLS);
  private readonly rowStart = new Float64Array(MAX_ATTEMPTS);
  private readonly rowEnd = new Float64Array(MAX_ATTEMPTS);
  // The group's server side (attempt.ts serve, execute): its executions, and the one under the key
  // its attempts carry now (`held`; never under scope attempt, whose keys are fresh), with its
  // claim (an atomic one), its result and the request's fingerprint; its rows; the answers counted.
  private held = false;
  private claimAt = 0;
  private doneAt = 0;
  private execFp = 0;
  private executions = 0;
  private byReplan = 0;
  private firstAt = Infinity;
  private firstKind = ORIGINAL;
  private keyRows = 0;
  private stored = 0;
  private handlerRuns = 0;
  private over = 0;
  private conflicts = 0;
  private dedups = 0;
  private mismatches = 0;
  /**
   * The attempt `serveRetried` answers: its send time, and how long after it the reply left. In an
   * array: a double passed to a call the optimiser does not inline is boxed, an allocation each.
   */
  private readonly served = new Float64Array(2);
  // The group's client side (calls.ts, group.ts): its attempts, its calls, the last one's end and latency bin, and its tallies.
  private sent = 0;
  private calls = 0;
  private unknownCalls = 0;
  private unknownAttempts = 0;
  private readonly lastCall = new Float64Array(2); // its return, its latency
  private lastKey = 0;
  /** With series (docs/model.md, "Time"), the counts the group made: which, and when (`SeriesTally.add`'s; a delta of 1). */
  private readonly eventOf = new Uint8Array(MAX_EVENTS);
  private readonly eventAt = new Float64Array(MAX_EVENTS);
  private events = 0;

  /**
   * Group `a`, not simple by its uniform `u` under `p`, on the retry path: true when it stayed on
   * it (its counts are in the totals), false when the stream is back at the group's start. Only a
   * group whose first decision to fail is its request, its latency or its reply can stay.
   */
  protected retried(p: Params, a: number, u: number): boolean {
    const reach = p.reach;
    const fails = u < (reach[D_REQUEST] as number) && (u >= (reach[D_LATENCY + 1] as number) || (u < (reach[D_REPLY] as number) && u >= (reach[D_REPLAY] as number)));
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
        if (got === NO_REPLY || got === CONFLICT_409) this.unknownCall(end);
      }
      // The call's end (endCall): a re-plan, or the step's end.
      if (this.calls === MAX_CALLS) return false;
      const latency = end - callStart;
      this.callKeys[this.calls++] = this.lastKey = binKey(latency);
      this.lastCall[0] = end; this.lastCall[1] = latency;
      let stepEnd = end;
      if (got !== OK && replans < p.maxReplans && p.replanP > 0 && rng.next() < p.replanP) {
        replans++;
        const next = end + uniform(rng, p.replanMin, p.replanMax);
        stepEnd = next; // unless it re-plans: the read tool found the action done then
        if (!(p.verify && this.firstAt <= next)) {
          kind = REPLAN;
          if (KEY_LASTS[p.scope] === 'call') this.held = false; // a new call, a new key
          if (p.drift > 0 && rng.next() < p.drift) {
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

  /**
   * The server's answer to the group's request sent at `served[0]` carrying fingerprint `fp`, of a
   * call of `kind` (attempt.ts serve): a reply status, its time in `served[1]`, or LEAVES. Small
   * enough for the optimiser to inline into the attempts' loop; the handler's run is apart.
   */
  private serveRetried(p: Params, fp: number, kind: number): number {
    const s = this.served[0] as number;
    if (p.storeDown && p.scope !== S_NONE) return LEAVES; // the store is down (an incident): fail closed or open, the general model's
    if (!this.held) return this.handled(p, fp, kind);
    // The key store's answer: the latest of the two writes at or before s, if still live.
    const found = s >= this.doneAt ? (s < this.doneAt + p.retention ? DONE_OK : NONE) : p.atomic && s < this.claimAt + p.runningLife ? RUNNING : NONE;
    if (found === NONE) return LEAVES; // a second execution under the key (its rows would merge)
    this.served[1] = s - s + p.fastReply;
    const status = p.fpChecked && this.execFp !== fp ? MISMATCH_422 : found === RUNNING ? CONFLICT_409 : OK;
    if (status === MISMATCH_422) this.mismatches++;
    else if (status === CONFLICT_409) this.conflicts++;
    else { this.dedups++; this.stored = 1; }
    if (this.series !== null) this.noteAt(status === MISMATCH_422 ? SER.mismatches_422 : status === CONFLICT_409 ? SER.conflicts_409 : SER.dedup_hits, s + p.fastReply);
    return status;
  }

  /** The handler runs for the request sent at `served[0]` (attempt.ts execute): OK with its time in `served[1]`, or LEAVES (a 5xx or a crash). */
  private handled(p: Params, fp: number, kind: number): number {
    const s = this.served[0] as number; // not an argument: a double passed to a call the optimiser does not inline is boxed
    this.drawHandlerDelay(this.handlerDelay, 0);
    const delay = this.handlerDelay[0] as number;
    this.handlerRuns++;
    if (delay > p.timeout) this.over++;
    if (this.outcomeDraw() < p.crashCut) return LEAVES;
    const done = s + delay;
    this.executions++;
    if (kind === REPLAN) this.byReplan++;
    if (done < this.firstAt) { this.firstAt = done; this.firstKind = kind; }
    if (this.series !== null) {
      this.noteAt(SER.executions, done);
      this.noteAt(SER.duplicates, done); // the first of the action's is taken off when it ends (countRetried)
    }
    if (p.scope !== S_NONE) {
      this.held = KEY_LASTS[p.scope] !== 'attempt';
      this.claimAt = s; this.doneAt = done; this.execFp = fp;
      this.rowStart[this.keyRows] = p.atomic ? s : done;
      this.rowEnd[this.keyRows++] = done + p.retention;
    }
    this.served[1] = s - s + delay;
    return OK;
  }

  /** The group's state, empty, for its action arriving at `arrival`. */
  private beginRetry(arrival: number): void {
    this.held = false; this.executions = 0; this.byReplan = 0; this.firstAt = Infinity; this.firstKind = ORIGINAL; this.keyRows = 0; this.stored = 0;
    this.handlerRuns = 0; this.over = 0; this.conflicts = 0; this.dedups = 0; this.mismatches = 0;
    this.calls = 0; this.unknownCalls = 0;
    this.events = 0;
    if (this.series !== null) this.noteAt(SER.arrivals, arrival);
  }

  /** The call ended at `end` with its outcome unknown (calls.ts endCall): a rare step, kept apart. */
  private unknownCall(end: number): void {
    this.unknownCalls++;
    if (this.series !== null) this.noteAt(SER.unknown_outcomes, end);
  }

  /** A count of series `m` at `t`, kept until the group stays on the path. */
  private noteAt(m: number, t: number): void {
    this.eventOf[this.events] = m;
    this.eventAt[this.events++] = t;
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
