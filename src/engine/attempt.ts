/**
 * One attempt (docs/model.md): the server's side (the key store's answer, or the handler's run
 * with its writes to the store), the client's receipt, and its next move: a retry with
 * backoff, or the call's end (calls.ts). A layer of the engine's one class (engine-state.ts
 * says why).
 */
import { CallModel } from './calls.js';
import { S_ATTEMPT, S_BUSINESS, S_CALL, S_INTENT, S_NONE, S_RUN, S_TEXT } from './compile.js';
import { assertNever } from '../model/enums.js';
import { SER } from '../model/series.js';
import { CLAIM, DONE_ERR, DONE_OK, NONE, RELEASE, RUNNING } from './write-log.js';
import { unit } from '../random/rng.js';

// Kept in the module that uses them (and re-exported by engine.ts): the optimiser folds a
// module's own constants, while an imported one is a load from its module cell at each use.
/** Replies a client can receive (STORE_503: the key store is down and the server fails closed). */
/** SHED_503: the queue was full (docs/model.md, "Capacity"; the coupled engine's only). */
export const OK = 0, ERR_5XX = 1, CONFLICT_409 = 2, MISMATCH_422 = 3, STORE_503 = 4, SHED_503 = 5, NO_REPLY = -1;
/** Who answered an attempt: nobody (the request was lost), the key store, or the handler. */
export const LOST_REQUEST = 0, FROM_STORE = 1, HANDLER = 2;
/** Special keys: no key at all, or a fresh key nobody will ever look up. */
export const NO_KEY = -1, FRESH_KEY = -2;

export class AttemptModel extends CallModel {
  /** The key actor `i`'s attempts carry now: the scope's identity as a group-local number, NO_KEY or FRESH_KEY. */
  protected keyOf(i: number): number {
    const scope = this.p.scope;
    switch (scope) {
      case S_NONE: return NO_KEY;
      case S_ATTEMPT: return FRESH_KEY;
      case S_CALL: return this.callId[i] as number;
      case S_INTENT: return i & 1; // the group's primary or twin
      case S_BUSINESS: return 0;
      case S_TEXT: return this.text[i] as number;
      case S_RUN: return i; // a delivery's run (delivery.ts: actor 2k + action)
      default: return assertNever(scope);
    }
  }

  /** Actor `i`'s attempt sent at `sendAt[i]`: the server's answer at once (no queue), then the client's next move. */
  protected sendAttempt(i: number): void {
    const s = this.sendAt[i] as number;
    if (this.regimes !== null) this.p = this.regimes.at(this.offset + s);
    const p = this.p;
    this.attemptsSent[i]!++;
    this.worked();
    let status = NO_REPLY;
    let answeredBy = LOST_REQUEST;
    const key = this.keyOf(i); // sent even when the request is lost (the tracer names it)
    if (!this.requestLost()) {
      this.serveStart[i] = s;
      status = this.serve(i, key, p.fpText ? (this.text[i] as number) : 0, this.kind[i] as number, p.storeDown);
      answeredBy = this.answeredBy;
    } else {
      this.replyAfter[i] = 0;
    }
    const received = status !== NO_REPLY && (this.replyAfter[i] as number) <= p.timeout && !this.replyLost();
    this.clientLearns(i, key, status, answeredBy, received);
  }

  /**
   * The client learns the outcome of actor `i`'s attempt sent at `sendAt[i]`: its reply
   * (`replyAfter[i]` after the send) when `received`, else its timeout; then its next move.
   */
  protected clientLearns(i: number, key: number, status: number, answeredBy: number, received: boolean): void {
    const s = this.sendAt[i] as number;
    const timeout = this.p.timeout;
    if (!received) this.totals.unknownAttempts++;
    if (this.series !== null) {
      this.series.add(SER.attempts, s);
      if (!received) this.series.add(SER.timeouts, s + timeout);
    }
    this.hooks.onAttempt(i, s, key, this.replyAfter[i] as number, status, answeredBy, received);
    this.attemptEnd[i] = received ? s + (this.replyAfter[i] as number) : s + timeout;
    this.afterAttempt(i, received ? status : NO_REPLY);
  }

  /**
   * The server handles a request of actor `i` carrying `key`, fingerprint `fp`, from a call of
   * `kind`, whose handler starts at `serveStart[i]` (with the parameters of its send time in
   * `p`, and whether the key store is down at its start): the key store's answer, or the
   * handler's run with its writes. Returns the reply (NO_REPLY for a crash), sets `replyAfter[i]`
   * (the reply leaves that long after the send time `sendAt`... or, queued, after `serveStart`
   * minus the wait: the caller's) and `answeredBy`. The one home of the server's rules: the
   * chunk engine calls it at the send, the coupled engine when a worker takes the request.
   */
  protected serve(i: number, key: number, fp: number, kind: number, storeDown: boolean): number {
    const p = this.p;
    const t = this.serveStart[i] as number;
    // A key store that is down (an incident) is neither read nor written: fail closed answers
    // 503 at once, fail open runs the handler as if no key were sent.
    const used = storeDown ? NO_KEY : key;
    const found = used >= 0 ? this.log.lookup(used, t) : NONE;
    let status: number;
    let delay = p.fastReply;
    this.answeredBy = FROM_STORE;
    if (used !== key && !p.failOpen) {
      status = STORE_503; this.storeUnavailable[i]!++;
    } else if (found !== NONE && p.fpChecked && this.log.foundFp !== fp) {
      status = MISMATCH_422; this.mismatches422[i]!++;
    } else if (found === RUNNING) {
      status = CONFLICT_409; this.conflicts409[i]!++;
    } else if (found !== NONE) {
      status = found === DONE_OK ? OK : ERR_5XX; this.dedupHits[i]!++;
      if (found === DONE_OK) this.gotStoredSuccess[i] = 1;
    } else {
      this.drawHandlerDelay(this.handlerDelay, i);
      delay = this.handlerDelay[i] as number;
      this.answeredBy = HANDLER;
      this.totals.handlerRuns++;
      if (delay > p.timeout) this.totals.overTimeout++;
      status = this.execute(i, used, fp, kind);
    }
    if (this.series !== null && this.answeredBy === FROM_STORE) this.countStoreReply(status, t + delay);
    this.replyAfter[i] = t - (this.sendAt[i] as number) + delay;
    return status;
  }

  /** The series' count of a reply from the key store (or of a down store's 503), at the time it leaves. */
  private countStoreReply(status: number, at: number): void {
    const sr = this.series!;
    sr.add(status === STORE_503 ? SER.store_unavailable : status === MISMATCH_422 ? SER.mismatches_422 : status === CONFLICT_409 ? SER.conflicts_409 : SER.dedup_hits, at);
  }

  /**
   * Actor `i`'s attempt ended at `attemptEnd[i]` with `status` (NO_REPLY: nothing in time): a
   * retry, or the call's end. (The end comes in the array: whether the optimiser inlines this
   * into sendAttempt depends on the sizes of both, and a double argument of a call it does not
   * inline is boxed, an allocation per attempt.)
   */
  private afterAttempt(i: number, status: number): void {
    const p = this.p;
    const end = this.attemptEnd[i] as number;
    if (status === OK) {
      if (this.guarded) this.attemptSucceeded(i);
      return this.endCall(i, true, false);
    }
    if (status === MISMATCH_422) return this.endCall(i, false, false);
    const retry = (this.attempt[i] as number) + 1;
    if (retry <= p.retries) {
      const d = p.backoff[retry] as number;
      let wait = this.jittered(d);
      if (status === CONFLICT_409 && wait < p.retryAfter) wait = p.retryAfter;
      else if (status === SHED_503 && wait < p.shedRetryAfter) wait = p.shedRetryAfter;
      const next = end + wait;
      if (next - (this.callStart[i] as number) <= p.deadline && (!this.guarded || this.retryAllowed(i, status))) {
        this.attempt[i] = retry;
        this.sendAt[i] = next;
        return;
      }
    }
    this.endCall(i, false, status === NO_REPLY || status === CONFLICT_409);
  }

  /**
   * The wait before a retry whose backoff is `d`, with the scenario's jitter (policy.ts `jittered`,
   * as compile.ts writes it); draws only when it jitters. Small, for the retry path's loop to inline
   * it: a double returned from a call the optimiser leaves is a heap number.
   */
  protected jittered(d: number): number {
    const p = this.p;
    return p.jitterScale > 0 ? p.jitterLow * d + p.jitterScale * d * unit(this.rng.int32()) : d;
  }

  /** The handler runs for actor `i`'s request from `serveStart[i]`, taking `handlerDelay[i]`; returns the reply status (or NO_REPLY for a crash). */
  private execute(i: number, key: number, fp: number, kind: number): number {
    const p = this.p;
    const log = this.log;
    const rows = this.rows;
    const owner = i & 1; // the group's primary (0) or twin (1)
    const s = this.serveStart[i] as number;
    const done = s + (this.handlerDelay[i] as number);
    const keyed = key !== NO_KEY;
    const claims = keyed && p.atomic;
    const u = this.outcomeDraw();
    if (claims) {
      log.write(key, s, CLAIM, fp, s + p.runningLife);
    }
    if (u < p.errorRate) {
      if (p.storeErrors && keyed) {
        log.write(key, done, DONE_ERR, fp, done + p.retention);
        rows.record(key, claims ? s : done, done + p.retention, owner);
      } else if (claims) {
        log.write(key, done, RELEASE, fp, done);
        rows.record(key, s, done, owner);
      }
      return ERR_5XX;
    }
    if (u < p.crashCut) {
      if (!(p.transactional && keyed) && unit(this.rng.int32()) < p.crashAfter) this.execution(i, done, kind, key);
      if (claims && p.transactional) {
        log.write(key, done, RELEASE, fp, done);
        rows.record(key, s, done, owner);
      } else if (claims) {
        rows.record(key, s, s + p.runningLife, owner);
      }
      return NO_REPLY;
    }
    this.execution(i, done, kind, key);
    if (keyed) {
      log.write(key, done, DONE_OK, fp, done + p.retention);
      rows.record(key, claims ? s : done, done + p.retention, owner);
    }
    return OK;
  }

  /** The handler's side effect for actor `i`, of a call of `kind` whose request carried `key` (as the store used it), happens at `at`. */
  private execution(i: number, at: number, kind: number, key: number): void {
    this.hooks.onExecution(i, at, key);
    if (this.series !== null) {
      this.series.add(SER.executions, at);
      this.series.add(SER.duplicates, at); // the first of the action's is taken off when it ends (group.ts)
    }
    this.execCount[i]!++;
    this.execByKind[i * 3 + kind]!++;
    if (at < (this.execFirst[i] as number)) {
      this.execFirst[i] = at;
      this.execFirstKind[i] = kind;
    }
  }
}
