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
import { compileLatency, type LatencySampler } from './latency.js';
import type { ChunkPlan } from './plan.js';
import { Rng } from '../random/rng.js';
import { uniform } from '../random/uniform.js';
import { assertNever, type Claim, type Fingerprint, type Jitter, type OnError, type Scope } from './enums.js';
import type { Scenario } from './types.js';

/** Kinds of tool call (index into the duplicate split). */
export const ORIGINAL = 0, REPLAN = 1, REPLAY = 2;
/** Key-store writes. */
const CLAIM = 1, DONE_OK = 2, DONE_ERR = 3, RELEASE = 4;
/** What a lookup finds. */
const NONE = 0, RUNNING = 1;
/** Replies a client can receive. */
export const OK = 0, ERR_5XX = 1, CONFLICT_409 = 2, MISMATCH_422 = 3, NO_REPLY = -1;
/** Who answered an attempt: nobody (the request was lost), the key store, or the handler. */
export const LOST_REQUEST = 0, FROM_STORE = 1, HANDLER = 2;
/** Key scopes as the hot loop's small integers, one per scope (`keyOf` has a case for each). */
export const S_NONE = 0, S_ATTEMPT = 1, S_CALL = 2, S_INTENT = 3, S_BUSINESS = 4, S_TEXT = 5;
type ScopeCode = typeof S_NONE | typeof S_ATTEMPT | typeof S_CALL | typeof S_INTENT | typeof S_BUSINESS | typeof S_TEXT;
const SCOPE_CODE: Record<Scope, ScopeCode> = {
  none: S_NONE, attempt: S_ATTEMPT, call: S_CALL, intent: S_INTENT, business: S_BUSINESS, text: S_TEXT,
};
/** Backoff jitters as small integers (`jittered` has a case for each). */
const J_NONE = 0, J_FULL = 1, J_EQUAL = 2;
type JitterCode = typeof J_NONE | typeof J_FULL | typeof J_EQUAL;
const JITTER_CODE: Record<Jitter, JitterCode> = { none: J_NONE, full: J_FULL, equal: J_EQUAL };
/** Whether a stored fingerprint is compared at all, and whether it covers the free text (else only the business identity, the same for a whole group). */
const FINGERPRINT_RULE: Record<Fingerprint, { checked: boolean; text: boolean }> = {
  full: { checked: true, text: true }, business: { checked: true, text: false }, none: { checked: false, text: false },
};
/** Whether a claim takes the key atomically before the handler runs (else the key is written only when it ends). */
const ATOMIC_CLAIM: Record<Claim, boolean> = { atomic: true, check_then_act: false };
/** Whether a 5xx is stored under its key (else the key is released). */
const STORES_ERRORS: Record<OnError, boolean> = { release: false, store: true };
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
export interface ChunkOutput {
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
  /**
   * Key records on the run's peak grid (see peak.ts): pairs of cells (first live, first not
   * live), records that are never live at a grid instant left out.
   */
  cells: Int32Array;
  /** The lowest and the highest cell in `cells`, so the grid makes room at once (0 when empty). */
  cellsLow: number;
  cellsHigh: number;
}

/** A chunk output that stays valid after the simulator's next run: copies of its views. */
export function detachedOutput(out: ChunkOutput): ChunkOutput {
  return { ...out, sum: out.sum.slice(), sumSq: out.sumSq.slice(), cells: out.cells.slice() };
}

/** Scenario numbers in the form the hot loop wants them. */
interface Params {
  twinP: number; twinMin: number; twinMax: number;
  requestLoss: number; replyLoss: number;
  latency: LatencySampler;
  errorRate: number; crashCut: number; crashAfter: number; fastReply: number;
  timeout: number; retries: number; deadline: number;
  backoff: Float64Array; jitter: JitterCode; retryAfter: number;
  replanP: number; maxReplans: number; replanMin: number; replanMax: number;
  drift: number; verify: boolean;
  crashP: number; resumeMin: number; resumeMax: number; maxReplays: number;
  scope: ScopeCode;
  atomic: boolean; fpChecked: boolean; fpText: boolean; retention: number; runningLife: number;
  transactional: boolean; storeErrors: boolean;
  /**
   * For the fast path (see simulateArrivals): the chances, not zero, that the general model draws for a group
   * before its first latency (a twin, a lost request) and after it (an error or crash, a
   * lost reply, a replay), in its order. Any of them coming true makes the group not simple.
   */
  simpleBefore: Float64Array; simpleAfter: Float64Array;
}

function compile(s: Scenario): Params {
  const b = s.client.backoff;
  const backoff = new Float64Array(s.client.retries + 1);
  // base 0 stays 0 even where multiplier ** (j - 1) overflows (0 x Infinity would be NaN).
  for (let j = 1; j <= s.client.retries; j++) backoff[j] = b.base === 0 ? 0 : Math.min(b.max, b.base * b.multiplier ** (j - 1));
  const i = s.idempotency;
  const crashCut = s.service.error_rate + s.service.crash_probability;
  const chances = (...ps: number[]) => Float64Array.from(ps.filter((x) => x > 0));
  return {
    twinP: s.workload.twin_probability, twinMin: s.workload.twin_delay.min, twinMax: s.workload.twin_delay.max,
    requestLoss: s.network.request_loss, replyLoss: s.network.reply_loss,
    latency: compileLatency(s.service.latency),
    errorRate: s.service.error_rate,
    crashCut,
    crashAfter: s.service.crash_after_effect,
    fastReply: s.service.fast_reply,
    timeout: s.client.timeout, retries: s.client.retries, deadline: s.client.deadline ?? Infinity,
    backoff, jitter: JITTER_CODE[b.jitter],
    retryAfter: i.conflict_retry_after ?? 0,
    replanP: s.agent.replan_probability, maxReplans: s.agent.max_replans,
    replanMin: s.agent.replan_delay.min, replanMax: s.agent.replan_delay.max,
    drift: s.agent.arg_drift_probability, verify: s.agent.verify_before_replan,
    crashP: s.runtime.crash_probability, resumeMin: s.runtime.resume_delay.min,
    resumeMax: s.runtime.resume_delay.max, maxReplays: s.runtime.max_replays,
    scope: SCOPE_CODE[i.scope], atomic: ATOMIC_CLAIM[i.claim],
    fpChecked: FINGERPRINT_RULE[i.fingerprint].checked, fpText: FINGERPRINT_RULE[i.fingerprint].text,
    retention: i.retention,
    runningLife: i.lease ?? i.retention, // docs/model.md: until the lease lapses, without one until retention
    transactional: i.transactional, storeErrors: STORES_ERRORS[i.on_error],
    simpleBefore: chances(s.workload.twin_probability, s.network.request_loss),
    simpleAfter: chances(crashCut, s.network.reply_loss, s.runtime.max_replays > 0 ? s.runtime.crash_probability : 0),
  };
}

/** Simulates chunks of one scenario; reuse one instance for many chunks. */
export class ChunkSimulator {
  protected readonly p: Params;
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
  protected readonly attempt = new Int32Array(2);
  private readonly replans = new Int32Array(2);
  private readonly replays = new Int32Array(2);
  protected readonly text = new Int32Array(2);
  protected readonly callId = new Int32Array(2);
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

  // The group's key store as a log of writes (time-ordered lookups scan it).
  private wKey = new Int32Array(64);
  private wTime = new Float64Array(64);
  private wType = new Int8Array(64);
  private wFp = new Int32Array(64);
  private wUntil = new Float64Array(64);
  private wLen = 0;
  private foundFp = 0;

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
  private recStart = new Float64Array(1024);
  private recEnd = new Float64Array(1024);
  private recKey = new Int32Array(1024);
  private recLen = 0;
  /** The chunk's grid cells (reused: a fresh 128 kB array per chunk cost page faults and GC) and their range. */
  private cells = new Int32Array(2048);
  private readonly cellRange = new Int32Array(2);
  /** First record of the current group: keys are local to a group. */
  private groupRecords = 0;
  /** Arrival times of the chunk's groups (ms from its start). */
  private arrivals = new Float64Array(0);

  /**
   * `gridStep`: the run's peak grid step in ms (see `gridStepFor`). `fastPath: false` sends
   * every group through the general model; the outputs are the same (tests compare them).
   */
  constructor(scenario: Scenario, private readonly gridStep: number, private readonly fastPath = true) {
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
      if (p.scope !== S_NONE) this.appendRecord(FRESH_KEY, p.atomic ? s : done, done + p.retention); // the group's only record: no later write merges with it
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
      ...this.gridCells(plan.offset),
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
    this.recLen = 0;
    this.simpleGroups = 0;
  }

  private simulateGroup(a: number): void {
    const p = this.p;
    const arrival = this.arrivals[a] as number;
    this.wLen = 0;
    this.groupRecords = this.recLen;
    this.nextCall = 0;
    this.nextText = 0;
    this.onGroup(arrival);
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
    this.onCall(i, kind, at);
  }

  protected keyOf(i: number): number {
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
    if (!(p.requestLoss > 0 && rng.next() < p.requestLoss)) {
      answeredBy = FROM_STORE;
      const key = this.keyOf(i);
      const fp = p.fpText ? (this.text[i] as number) : 0;
      const found = key >= 0 ? this.lookup(key, s) : NONE;
      if (found !== NONE && p.fpChecked && this.foundFp !== fp) {
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
    this.onAttempt(i, s, delay, status, answeredBy, received);
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
      this.write(key, s, CLAIM, fp, s + p.runningLife);
      this.tally[i * TALLIES + T_KEYS]!++;
    }
    if (u < p.errorRate) {
      if (p.storeErrors && keyed) {
        if (!claims) this.tally[i * TALLIES + T_KEYS]!++;
        this.write(key, done, DONE_ERR, fp, done + p.retention);
        this.record(key, claims ? s : done, done + p.retention);
      } else if (claims) {
        this.write(key, done, RELEASE, fp, done);
        this.record(key, s, done);
      }
      return ERR_5XX;
    }
    if (u < p.crashCut) {
      if (!(p.transactional && keyed) && this.rng.next() < p.crashAfter) this.execution(i, done);
      if (claims && p.transactional) {
        this.write(key, done, RELEASE, fp, done);
        this.record(key, s, done);
      } else if (claims) {
        this.record(key, s, s + p.runningLife);
      }
      return NO_REPLY;
    }
    this.execution(i, done);
    if (keyed) {
      if (!claims) this.tally[i * TALLIES + T_KEYS]!++;
      this.write(key, done, DONE_OK, fp, done + p.retention);
      this.record(key, claims ? s : done, done + p.retention);
    }
    return OK;
  }

  private execution(i: number, at: number): void {
    const kind = this.kind[i] as number;
    this.onExecution(i, at);
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
    this.onCallEnd(i, at, success, unknown);
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

  // ---- hooks for the action timeline (trace.ts); empty here, so the optimiser drops the calls ----

  /** A group (a primary action and its possible twin) arrives at `arrival` (ms in the chunk). */
  protected onGroup(_arrival: number): void { /* empty */ }
  /** Actor `i` starts a tool call of `kind` (ORIGINAL, REPLAN, REPLAY) at `at`. */
  protected onCall(_i: number, _kind: number, _at: number): void { /* empty */ }
  /**
   * Actor `i`'s attempt sent at `s` was answered by `answeredBy` after `delay` ms with `status`;
   * `received` is whether the client got that reply before its timeout.
   */
  protected onAttempt(_i: number, _s: number, _delay: number, _status: number, _answeredBy: number, _received: boolean): void { /* empty */ }
  /** The handler's side effect for actor `i` happened at `at`. */
  protected onExecution(_i: number, _at: number): void { /* empty */ }
  /** Actor `i`'s tool call returned to the model at `at`. */
  protected onCallEnd(_i: number, _at: number, _success: boolean, _unknown: boolean): void { /* empty */ }

  // ---- the group's key store ----

  /** The live record for `key` at time `r`: NONE, RUNNING, DONE_OK or DONE_ERR (sets foundFp). */
  private lookup(key: number, r: number): number {
    let best = -1;
    let bestTime = -Infinity;
    for (let w = 0; w < this.wLen; w++) {
      const t = this.wTime[w] as number;
      if (this.wKey[w] === key && t <= r && t >= bestTime) { best = w; bestTime = t; }
    }
    if (best < 0) return NONE;
    const type = this.wType[best] as number;
    if (type === RELEASE || r >= (this.wUntil[best] as number)) return NONE;
    this.foundFp = this.wFp[best] as number;
    return type; // CLAIM is RUNNING
  }

  private write(key: number, at: number, type: number, fp: number, until: number): void {
    if (key < 0) return; // a fresh per-attempt key is never looked up again
    if (this.wLen === this.wKey.length) this.growLog();
    const w = this.wLen++;
    this.wKey[w] = key; this.wTime[w] = at; this.wType[w] = type; this.wFp[w] = fp; this.wUntil[w] = until;
  }

  private growLog(): void {
    const n = this.wKey.length * 2;
    const grow = <T extends Int32Array | Float64Array | Int8Array>(a: T, make: (n: number) => T): T => { const b = make(n); b.set(a); return b; };
    this.wKey = grow(this.wKey, (k) => new Int32Array(k));
    this.wTime = grow(this.wTime, (k) => new Float64Array(k));
    this.wType = grow(this.wType, (k) => new Int8Array(k));
    this.wFp = grow(this.wFp, (k) => new Int32Array(k));
    this.wUntil = grow(this.wUntil, (k) => new Float64Array(k));
  }

  /**
   * A key record lives in [start, end) (for peak_live_keys). A key is one row: a record that
   * overlaps an earlier one of the same key (a takeover, a stale handler's write, a second
   * stored result under check_then_act) extends that row instead of adding one.
   */
  private record(key: number, start: number, end: number): void {
    if (key >= 0) {
      for (let j = this.groupRecords; j < this.recLen; j++) {
        if (this.recKey[j] === key && start < (this.recEnd[j] as number) && (this.recStart[j] as number) < end) {
          if (start < (this.recStart[j] as number)) this.recStart[j] = start;
          if (end > (this.recEnd[j] as number)) this.recEnd[j] = end;
          return;
        }
      }
    }
    this.appendRecord(key, start, end);
  }

  private appendRecord(key: number, start: number, end: number): void {
    if (this.recLen === this.recStart.length) this.growRecords(); // apart, to keep this small enough to inline
    this.recStart[this.recLen] = start;
    this.recEnd[this.recLen] = end;
    this.recKey[this.recLen++] = key;
  }

  /** The chunk's records [start, end) as grid cell pairs (see KeyGrid), in this simulator's buffer. */
  private gridCells(offset: number): Pick<ChunkOutput, 'cells' | 'cellsLow' | 'cellsHigh'> {
    if (this.cells.length < 2 * this.recLen) this.cells = new Int32Array(4 * this.recLen);
    // The loop apart: compiled on the stack while it runs (OSR) before the first `subarray`
    // had type feedback, the loop's code deoptimised at it at the end of every chunk.
    const m = fillCells(this.cells, this.cellRange, this.recStart, this.recEnd, this.recLen, offset, this.gridStep);
    return { cells: this.cells.subarray(0, m), cellsLow: this.cellRange[0] as number, cellsHigh: this.cellRange[1] as number };
  }

  private growRecords(): void {
    const n = this.recLen * 2;
    const a = new Float64Array(n); a.set(this.recStart); this.recStart = a;
    const b = new Float64Array(n); b.set(this.recEnd); this.recEnd = b;
    const c = new Int32Array(n); c.set(this.recKey); this.recKey = c;
  }
}

/**
 * Writes the cell pairs of records live at some grid instant of a chunk starting at `offset`;
 * returns how many numbers it wrote, and their lowest and highest in `range`.
 */
function fillCells(cells: Int32Array, range: Int32Array, start: Float64Array, end: Float64Array, n: number, offset: number, step: number): number {
  let m = 0;
  let low = Infinity, high = -Infinity;
  for (let r = 0; r < n; r++) {
    const g0 = Math.ceil((offset + (start[r] as number)) / step);
    const g1 = Math.ceil((offset + (end[r] as number)) / step);
    if (g1 <= g0) continue; // never live at a grid instant
    if (g0 < low) low = g0;
    if (g1 > high) high = g1;
    cells[m++] = g0;
    cells[m++] = g1;
  }
  range[0] = m > 0 ? low : 0;
  range[1] = m > 0 ? high : 0;
  return m;
}
