/**
 * The simulation of docs/model.md, one chunk of primary actions at a time.
 *
 * Keys never cross business identities, so an action and its twin (a "group") are
 * simulated alone against a tiny private key store. Within a group, attempts are handled
 * in the order they are sent: every server write is scheduled at or after the send time of
 * the attempt that causes it, so when an attempt is handled all writes it could see are
 * known. State lives in preallocated typed arrays; nothing is allocated per action.
 */
import { binKey, LatencyBins, type BinsData } from './bins.js';
import { C, NUM_COUNTERS } from './counters.js';
import { standardExponential } from '../random/exponential.js';
import { compile, J_EQUAL, J_FULL, J_NONE, S_ATTEMPT, S_BUSINESS, S_CALL, S_INTENT, S_NONE, S_TEXT, type Params } from './compile.js';
import { NO_HOOKS, type EngineHooks } from './hooks.js';
import { LiveRows, type GridCells } from './live-rows.js';
import type { ChunkPlan } from './plan.js';
import { CLAIM, DONE_ERR, DONE_OK, NONE, RELEASE, RUNNING, WriteLog } from './write-log.js';
import { Rng } from '../random/rng.js';
import { uniform } from '../random/uniform.js';
import { assertNever } from './enums.js';
import type { Scenario } from './types.js';

/** Kinds of tool call (index into the duplicate split). */
export const ORIGINAL = 0, REPLAN = 1, REPLAY = 2;
/** Replies a client can receive. */
export const OK = 0, ERR_5XX = 1, CONFLICT_409 = 2, MISMATCH_422 = 3, NO_REPLY = -1;
/** Who answered an attempt: nobody (the request was lost), the key store, or the handler. */
export const LOST_REQUEST = 0, FROM_STORE = 1, HANDLER = 2;
/** Special keys: no key at all, or a fresh key nobody will ever look up. */
export const NO_KEY = -1, FRESH_KEY = -2;
/** Counter of the duplicates made by each kind of call. */
const DUPLICATES_BY_KIND = [C.duplicates_transport, C.duplicates_replan, C.duplicates_replay];
/** Per-action tallies kept while an action runs (the other counters derive from executions). */
const T_ATTEMPTS = 0, T_422 = 1, T_409 = 2, T_HITS = 3, T_KEYS = 4, T_UNKNOWN = 5, TALLIES = 6;

/**
 * Everything one chunk produced, as plain data; summed by `RunState`. The typed arrays are
 * views of the simulator's buffers, valid until its next `run` (a worker copies them).
 */
export interface ChunkOutput extends GridCells {
  index: number;
  /** Primary actions simulated. */
  primaries: number;
  /** Actions simulated, twins included. */
  actions: number;
  /** Per-action counter sums and sums of squares (see counters.ts). */
  sum: Float64Array;
  sumSq: Float64Array;
  /** Requests the handler ran (not answered from the key store, not lost on the way). */
  handlerRuns: number;
  /** Of those, runs that took longer than `client.timeout`. */
  handlerRunsOverTimeout: number;
  /** Attempts that ended with the client's timer (no reply in time, for any reason). */
  attemptsUnknown: number;
  callLatency: BinsData;
  actionLatency: BinsData;
}

/** A chunk output that stays valid after the simulator's next run: copies of its views. */
export function detachedOutput(out: ChunkOutput): ChunkOutput {
  return { ...out, sum: out.sum.slice(), sumSq: out.sumSq.slice(), cells: out.cells.slice() };
}

/** Simulates chunks of one scenario; reuse one instance for many chunks. */
export class ChunkSimulator {
  private readonly p: Params;
  private rng: Rng = new Rng({ a: 0, b: 0, c: 0, d: 0 });

  // Actor (action) state, index 0 = primary, 1 = twin.
  private readonly sendAt = new Float64Array(2);
  private readonly kind = new Int8Array(2);
  private readonly callStart = new Float64Array(2);
  private readonly arrival = new Float64Array(2);
  private readonly lastReturn = new Float64Array(2);
  /** Each actor's current attempt: the handler's time (set before `execute`), and when the client has its outcome (before `endCall`). */
  private readonly handlerDelay = new Float64Array(2);
  private readonly attemptEnd = new Float64Array(2);
  private readonly attempt = new Int32Array(2);
  private readonly replans = new Int32Array(2);
  private readonly replays = new Int32Array(2);
  private readonly text = new Int32Array(2);
  private readonly callId = new Int32Array(2);
  private readonly execCount = new Int32Array(2);
  private readonly execFirst = new Float64Array(2);
  private readonly execFirstKind = new Int8Array(2);
  private readonly execByKind = new Int32Array(6);
  private readonly gotStoredSuccess = new Uint8Array(2);
  private readonly tally = new Int32Array(2 * TALLIES);
  /** Latency and bin key of each action's last call (most actions make one call). */
  private readonly lastCallLatency = new Float64Array(2);
  private readonly lastCallKey = new Int32Array(2);
  private nextCall = 0;
  private nextText = 0;

  /** The group's key store (cleared per group). */
  private readonly log = new WriteLog();

  // Per-chunk outputs.
  private readonly sum = new Float64Array(NUM_COUNTERS);
  private readonly sumSq = new Float64Array(NUM_COUNTERS);
  private actions = 0;
  private handlerRuns = 0;
  private overTimeout = 0;
  private unknownAttempts = 0;
  /** Groups run by the fast path (see simulateArrivals): their counters are added at the end of the chunk. */
  private simpleGroups = 0;
  /** Whether this chunk tries the fast path. */
  private tryFast = true;
  /**
   * Whether the fast path ran at least half the groups of the last chunk that tried it. A
   * boolean, not the share itself: a field that starts as a small integer and is later set to
   * a fraction changes the object's shape, which threw the optimised engine away in every
   * thread's first chunks.
   */
  private fastPaidOff = true;
  // Latency histograms, counted as the chunk runs. A simple group's call and action have the
  // same latency: its key is counted once, in simpleLatency, and added to both at the end.
  private readonly callLatency = new LatencyBins();
  private readonly actionLatency = new LatencyBins();
  private readonly simpleLatency = new LatencyBins();
  /** The chunk's key rows, for peak_live_keys. */
  private readonly rows = new LiveRows();
  /** Arrival times of the chunk's groups (ms from its start). */
  private arrivals = new Float64Array(0);

  /**
   * `gridStep`: the run's peak grid step in ms (see `gridStepFor`). `fastPath: false` sends
   * every group through the general model; the outputs are the same (tests compare them).
   * `hooks` hear every group's story (on the general model only: a tracer sets `fastPath: false`).
   */
  constructor(
    scenario: Scenario, private readonly gridStep: number, private readonly fastPath = true,
    private readonly hooks: EngineHooks = NO_HOOKS,
  ) {
    this.p = compile(scenario);
  }

  /** Simulates one chunk with the chunk's own stream. */
  run(rng: Rng, plan: ChunkPlan): ChunkOutput {
    this.rng = rng;
    this.reset();
    this.drawArrivals(plan.actions, plan.span);
    // Where few groups are simple (mission 2: most first attempts time out) the fast path
    // would redraw most groups for nothing: it is tried while it ran half the last chunk's.
    this.tryFast = this.fastPath && this.fastPaidOff;
    this.simulateArrivals(plan.actions);
    if (this.tryFast) this.fastPaidOff = this.simpleGroups / Math.max(1, plan.actions) >= 0.5;
    return this.output(plan);
  }

  /**
   * The hot loop, in a method of its own: code that runs once per chunk would reach the
   * optimiser without type feedback and throw the loop back to the interpreter each chunk.
   *
   * Most groups are simple: no twin, and the first attempt of the first call is executed and
   * answered in time, with no replay after it (about 96% of the lab's). The loop runs those
   * itself: it draws what `simulateGroup` would draw, in the same order, as far as it can
   * tell the group is simple; when it is not, it rewinds the stream and `simulateGroup` runs
   * the group from its start. test/fast-path.test.ts checks that chunks come out the same
   * with and without this path. It is written out here rather than in methods because the
   * optimiser inlines only so much into one function, and a double passed to or returned
   * from a call it does not inline is boxed: an allocation per group.
   */
  private simulateArrivals(n: number): void {
    const p = this.p;
    const rng = this.rng;
    const fast = this.tryFast;
    for (let a = 0; a < n; a++) {
      if (!fast) { this.simulateGroup(a); continue; }
      rng.mark();
      let simple = true;
      for (let k = 0; simple && k < p.simpleBefore.length; k++) simple = rng.next() >= (p.simpleBefore[k] as number);
      const delay = simple ? p.latency.sample(rng) : 0;
      simple &&= delay <= p.timeout;
      for (let k = 0; simple && k < p.simpleAfter.length; k++) simple = rng.next() >= (p.simpleAfter[k] as number);
      if (!simple) {
        rng.rewind();
        this.simulateGroup(a);
        continue;
      }
      // One attempt, one execution, one key record unless unkeyed; the call's latency is the action's.
      const s = this.arrivals[a] as number;
      const done = s + delay;
      this.handlerRuns++;
      this.simpleGroups++;
      if (p.scope !== S_NONE) this.rows.append(FRESH_KEY, p.atomic ? s : done, done + p.retention); // the group's only record: no later write merges with it
      this.simpleLatency.countKey(binKey(done - s));
      this.actions++;
    }
  }

  /** Exponential gaps scaled to the chunk's span: a Poisson process given its n-th arrival. */
  private drawArrivals(n: number, span: number): void {
    const rng = this.rng;
    if (this.arrivals.length < n) this.arrivals = new Float64Array(n);
    const arrivals = this.arrivals;
    let total = 0;
    for (let a = 0; a < n; a++) {
      const g = standardExponential(rng);
      arrivals[a] = g;
      total += g;
    }
    const scale = span / total;
    let t = 0;
    for (let a = 0; a < n - 1; a++) {
      t += (arrivals[a] as number) * scale;
      arrivals[a] = t;
    }
    if (n > 0) arrivals[n - 1] = span;
  }

  private output(plan: ChunkPlan): ChunkOutput {
    // Simple groups' counts, added at once: sums of integers are exact in any order.
    const simple = this.simpleGroups;
    const keyed = this.p.scope !== S_NONE ? simple : 0;
    for (const k of [C.attempts, C.executions]) { this.sum[k]! += simple; this.sumSq[k]! += simple; }
    this.sum[C.keys]! += keyed;
    this.sumSq[C.keys]! += keyed;
    this.callLatency.addBins(this.simpleLatency);
    this.actionLatency.addBins(this.simpleLatency);
    return {
      index: plan.index, primaries: plan.actions, actions: this.actions,
      sum: this.sum, sumSq: this.sumSq,
      handlerRuns: this.handlerRuns, handlerRunsOverTimeout: this.overTimeout, attemptsUnknown: this.unknownAttempts,
      callLatency: this.callLatency.toData(), actionLatency: this.actionLatency.toData(),
      ...this.rows.gridCells(plan.offset, this.gridStep),
    };
  }

  private reset(): void {
    this.sum.fill(0);
    this.sumSq.fill(0);
    this.actions = 0;
    this.handlerRuns = 0;
    this.overTimeout = 0;
    this.unknownAttempts = 0;
    this.callLatency.reset();
    this.actionLatency.reset();
    this.simpleLatency.reset();
    this.rows.clear();
    this.simpleGroups = 0;
  }

  private simulateGroup(a: number): void {
    const p = this.p;
    const arrival = this.arrivals[a] as number;
    this.log.clear();
    this.rows.beginGroup();
    this.nextCall = 0;
    this.nextText = 0;
    this.hooks.onGroup(arrival);
    const twin = p.twinP > 0 && this.rng.next() < p.twinP;
    this.startAction(0, arrival);
    if (twin) this.startAction(1, arrival + uniform(this.rng, p.twinMin, p.twinMax));
    else this.sendAt[1] = Infinity;
    for (;;) {
      const i = (this.sendAt[0] as number) <= (this.sendAt[1] as number) ? 0 : 1;
      const s = this.sendAt[i] as number;
      if (s === Infinity) break;
      this.sendAttempt(i);
    }
    this.finishAction(0);
    if (twin) this.finishAction(1);
  }

  private startAction(i: number, at: number): void {
    this.arrival[i] = at;
    this.lastReturn[i] = at;
    this.replans[i] = 0;
    this.replays[i] = 0;
    this.execCount[i] = 0;
    this.execFirst[i] = Infinity;
    this.execFirstKind[i] = ORIGINAL;
    // Plain loops: TypedArray.fill is a builtin call, too slow to make per action.
    for (let k = i * 3; k < i * 3 + 3; k++) this.execByKind[k] = 0;
    this.gotStoredSuccess[i] = 0;
    for (let k = i * TALLIES; k < (i + 1) * TALLIES; k++) this.tally[k] = 0;
    this.text[i] = this.nextText++;
    this.startCall(i, ORIGINAL, at);
  }

  private startCall(i: number, kind: number, at: number): void {
    this.kind[i] = kind;
    this.callId[i] = this.nextCall++;
    if (kind !== ORIGINAL && this.p.drift > 0 && this.rng.next() < this.p.drift) this.text[i] = this.nextText++;
    this.attempt[i] = 0;
    this.callStart[i] = at;
    this.sendAt[i] = at;
    this.hooks.onCall(i, kind, at);
  }

  private keyOf(i: number): number {
    const scope = this.p.scope;
    switch (scope) {
      case S_NONE: return NO_KEY;
      case S_ATTEMPT: return FRESH_KEY;
      case S_CALL: return this.callId[i] as number;
      case S_INTENT: return i;
      case S_BUSINESS: return 0;
      case S_TEXT: return this.text[i] as number;
      default: return assertNever(scope);
    }
  }

  /**
   * Actor `i`'s attempt sent at `sendAt[i]`: the server's answer, then the client's next move.
   * (Times go between these methods in typed arrays, not as arguments: a call the optimiser
   * does not inline boxes each double argument, megabytes a chunk where most actions retry.)
   */
  private sendAttempt(i: number): void {
    const p = this.p;
    const s = this.sendAt[i] as number;
    const rng = this.rng;
    const base = i * TALLIES;
    this.tally[base + T_ATTEMPTS]!++;
    let status = NO_REPLY;
    let delay = 0;
    let answeredBy = LOST_REQUEST;
    const key = this.keyOf(i); // sent even when the request is lost (the tracer names it)
    if (!(p.requestLoss > 0 && rng.next() < p.requestLoss)) {
      answeredBy = FROM_STORE;
      const fp = p.fpText ? (this.text[i] as number) : 0;
      const found = key >= 0 ? this.log.lookup(key, s) : NONE;
      if (found !== NONE && p.fpChecked && this.log.foundFp !== fp) {
        status = MISMATCH_422; delay = p.fastReply; this.tally[base + T_422]!++;
      } else if (found === RUNNING) {
        status = CONFLICT_409; delay = p.fastReply; this.tally[base + T_409]!++;
      } else if (found !== NONE) {
        status = found === DONE_OK ? OK : ERR_5XX; delay = p.fastReply; this.tally[base + T_HITS]!++;
        if (found === DONE_OK) this.gotStoredSuccess[i] = 1;
      } else {
        delay = p.latency.sample(rng);
        answeredBy = HANDLER;
        this.handlerRuns++;
        if (delay > p.timeout) this.overTimeout++;
        this.handlerDelay[i] = delay;
        status = this.execute(i, key, fp);
      }
    }
    const received = status !== NO_REPLY && delay <= p.timeout && !(p.replyLoss > 0 && rng.next() < p.replyLoss);
    if (!received) this.unknownAttempts++;
    this.hooks.onAttempt(i, s, key, delay, status, answeredBy, received);
    this.afterAttempt(i, received ? s + delay : s + p.timeout, received ? status : NO_REPLY);
  }

  /** The server runs the handler for the attempt sent at `sendAt[i]`, taking `handlerDelay[i]`; returns the reply status (or NO_REPLY for a crash). */
  private execute(i: number, key: number, fp: number): number {
    const p = this.p;
    const s = this.sendAt[i] as number;
    const done = s + (this.handlerDelay[i] as number);
    const keyed = key !== NO_KEY;
    const claims = keyed && p.atomic;
    const u = p.crashCut > 0 ? this.rng.next() : 1;
    if (claims) {
      this.log.write(key, s, CLAIM, fp, s + p.runningLife);
      this.tally[i * TALLIES + T_KEYS]!++;
    }
    if (u < p.errorRate) {
      if (p.storeErrors && keyed) {
        if (!claims) this.tally[i * TALLIES + T_KEYS]!++;
        this.log.write(key, done, DONE_ERR, fp, done + p.retention);
        this.rows.record(key, claims ? s : done, done + p.retention);
      } else if (claims) {
        this.log.write(key, done, RELEASE, fp, done);
        this.rows.record(key, s, done);
      }
      return ERR_5XX;
    }
    if (u < p.crashCut) {
      if (!(p.transactional && keyed) && this.rng.next() < p.crashAfter) this.execution(i, done);
      if (claims && p.transactional) {
        this.log.write(key, done, RELEASE, fp, done);
        this.rows.record(key, s, done);
      } else if (claims) {
        this.rows.record(key, s, s + p.runningLife);
      }
      return NO_REPLY;
    }
    this.execution(i, done);
    if (keyed) {
      if (!claims) this.tally[i * TALLIES + T_KEYS]!++;
      this.log.write(key, done, DONE_OK, fp, done + p.retention);
      this.rows.record(key, claims ? s : done, done + p.retention);
    }
    return OK;
  }

  private execution(i: number, at: number): void {
    const kind = this.kind[i] as number;
    this.hooks.onExecution(i, at);
    this.execCount[i]!++;
    this.execByKind[i * 3 + kind]!++;
    if (at < (this.execFirst[i] as number)) {
      this.execFirst[i] = at;
      this.execFirstKind[i] = kind;
    }
  }

  private afterAttempt(i: number, end: number, status: number): void {
    const p = this.p;
    this.attemptEnd[i] = end;
    if (status === OK) return this.endCall(i, true, false);
    if (status === MISMATCH_422) return this.endCall(i, false, false);
    const retry = (this.attempt[i] as number) + 1;
    if (retry <= p.retries) {
      const d = p.backoff[retry] as number;
      let wait = this.jittered(d);
      if (status === CONFLICT_409 && wait < p.retryAfter) wait = p.retryAfter;
      const next = end + wait;
      if (next - (this.callStart[i] as number) <= p.deadline) {
        this.attempt[i] = retry;
        this.sendAt[i] = next;
        return;
      }
    }
    this.endCall(i, false, status === NO_REPLY || status === CONFLICT_409);
  }

  /** The wait before a retry whose backoff is `d`, with the scenario's jitter (docs/model.md); draws only when it jitters. */
  private jittered(d: number): number {
    const jitter = this.p.jitter;
    switch (jitter) {
      case J_NONE: return d;
      case J_FULL: return d * this.rng.next();
      case J_EQUAL: return d / 2 + (d / 2) * this.rng.next();
      default: return assertNever(jitter);
    }
  }

  /** Actor `i`'s tool call returns to the model at `attemptEnd[i]`, the end of its last attempt. */
  private endCall(i: number, success: boolean, unknown: boolean): void {
    const p = this.p;
    const at = this.attemptEnd[i] as number;
    this.hooks.onCallEnd(i, at, success, unknown);
    const latency = at - (this.callStart[i] as number);
    const key = binKey(latency);
    this.callLatency.countKey(key);
    this.lastCallLatency[i] = latency;
    this.lastCallKey[i] = key;
    this.lastReturn[i] = at;
    let stepEnd = at;
    if (!success) {
      if (unknown) this.tally[i * TALLIES + T_UNKNOWN]!++;
      if ((this.replans[i] as number) < p.maxReplans && p.replanP > 0 && this.rng.next() < p.replanP) {
        this.replans[i]!++;
        const next = at + uniform(this.rng, p.replanMin, p.replanMax);
        if (!(p.verify && (this.execFirst[i] as number) <= next)) return this.startCall(i, REPLAN, next);
        stepEnd = next; // the read tool found the action done: no re-plan
      }
    }
    if ((this.replays[i] as number) < p.maxReplays && p.crashP > 0 && this.rng.next() < p.crashP) {
      this.replays[i]!++;
      this.replans[i] = 0;
      return this.startCall(i, REPLAY, stepEnd + uniform(this.rng, p.resumeMin, p.resumeMax));
    }
    this.sendAt[i] = Infinity;
  }

  private finishAction(i: number): void {
    const t = i * TALLIES;
    const tally = this.tally;
    const n = this.execCount[i] as number;
    this.count(C.attempts, tally[t + T_ATTEMPTS] as number);
    this.count(C.mismatches_422, tally[t + T_422] as number);
    this.count(C.conflicts_409, tally[t + T_409] as number);
    this.count(C.dedup_hits, tally[t + T_HITS] as number);
    this.count(C.keys, tally[t + T_KEYS] as number);
    this.count(C.unknown_outcomes, tally[t + T_UNKNOWN] as number);
    this.count(C.executions, n);
    if (n === 0) {
      this.count(C.lost, 1);
      if (this.gotStoredSuccess[i]) this.count(C.merged, 1);
    } else if (n > 1) {
      const first = this.execFirstKind[i] as number;
      for (let k = 0; k < 3; k++) this.count(DUPLICATES_BY_KIND[k] as number, (this.execByKind[i * 3 + k] as number) - (k === first ? 1 : 0));
      this.count(C.duplicates, n - 1);
    }
    // Most actions make one call, whose latency is the action's: reuse its bin key.
    const latency = (this.lastReturn[i] as number) - (this.arrival[i] as number);
    this.actionLatency.countKey(latency === this.lastCallLatency[i] ? (this.lastCallKey[i] as number) : binKey(latency));
    this.actions++;
  }

  /** Adds one action's value of a counter to the chunk's sums. */
  private count(k: number, v: number): void {
    if (v === 0) return;
    this.sum[k] = (this.sum[k] as number) + v;
    this.sumSq[k] = (this.sumSq[k] as number) + v * v;
  }
}
