/**
 * The server's side of the retry path (retry-path.ts says what the path is): the key store's
 * answer to a request, from the one record under the key its attempts carry now, or the
 * handler's run with its writes, as attempt.ts `serve` and `execute` have them. A layer of the
 * engine's one class (engine-state.ts says why), under the path's client side.
 *
 * The record: a claim (an atomic one) at `claimAt`, and the result at `resultAt`: a success or a
 * stored 5xx, live until `resultUntil`, or a released claim. A lookup finds the latest write at or
 * before its time, as the write log does. A second execution under one key is run here only where
 * the first is over for every later lookup (its result released or expired, so their rows cannot
 * merge); earlier, the group leaves the path.
 */
import { CONFLICT_409, ERR_5XX, MISMATCH_422, OK } from './attempt.js';
import { ORIGINAL, REPLAN } from './calls.js';
import { S_ATTEMPT, S_BUSINESS, S_CALL, S_INTENT, S_NONE, S_RUN, S_TEXT, type Params, type ScopeCode } from './compile.js';
import { SER } from '../model/series.js';
import { DeliveryModel } from './delivery.js';
import { DONE_ERR, DONE_OK, NONE, RELEASE, RUNNING } from './write-log.js';

/** The most attempts, and calls, of a group on the path (past them, the general model takes it). */
export const MAX_ATTEMPTS = 64, MAX_CALLS = 16;

/**
 * The series' counts a group on the path keeps until it stays: its arrival, at most four an attempt
 * (its send, its timeout, and the store's answer or the handler's execution and duplicate), and one
 * a call (an unknown outcome), counted only once the call is within MAX_CALLS. Its end's counts go to
 * the series directly (retry-path.ts).
 */
const MAX_EVENTS = 1 + 4 * MAX_ATTEMPTS + MAX_CALLS;

/**
 * How long the key an action's attempts carry lasts, by scope (attempt.ts `keyOf`): the path keeps
 * the record of the current key alone. None (no key); each attempt's own (never looked up); the
 * call's (a re-plan's is new); the free text's (a re-plan that rewrites it has a new one); the
 * action's (intent, business: one for the whole action, with no twin); or a scope the path does not
 * take (a delivery's run, with a trigger). A new scope without its line fails to compile.
 */
export const KEY_LASTS: Record<ScopeCode, 'none' | 'attempt' | 'call' | 'text' | 'action' | 'leave'> = {
  [S_NONE]: 'none', [S_ATTEMPT]: 'attempt', [S_CALL]: 'call', [S_INTENT]: 'action', [S_BUSINESS]: 'action', [S_TEXT]: 'text', [S_RUN]: 'leave',
};

/** What the server's side of an attempt on the path may return besides a reply: the group leaves the path. */
export const LEAVES = -2;

export class RetryServer extends DeliveryModel {
  /** The group's key rows, counted once the group stays on the path. */
  protected readonly rowStart = new Float64Array(MAX_ATTEMPTS);
  protected readonly rowEnd = new Float64Array(MAX_ATTEMPTS);
  protected keyRows = 0;
  // The record under the key the attempts carry now (`held`; never under scope attempt, whose keys
  // are fresh), with the request's fingerprint; the group's executions; the answers counted.
  protected held = false;
  private claimAt = 0;
  private resultAt = 0;
  private resultType = NONE;
  private resultUntil = 0;
  private execFp = 0;
  protected executions = 0;
  protected byReplan = 0;
  protected firstAt = Infinity;
  protected firstKind = ORIGINAL;
  protected stored = 0;
  protected handlerRuns = 0;
  protected over = 0;
  protected conflicts = 0;
  protected dedups = 0;
  protected mismatches = 0;
  /**
   * The attempt `serveRetried` answers: its send time, and how long after it the reply left. In an
   * array: a double passed to a call the optimiser does not inline is boxed, an allocation each.
   */
  protected readonly served = new Float64Array(2);
  /** With series (docs/model.md, "Time"), the counts the group made: which, and when (`SeriesTally.add`'s; a delta of 1). */
  protected readonly eventOf = new Uint8Array(MAX_EVENTS);
  protected readonly eventAt = new Float64Array(MAX_EVENTS);
  protected events = 0;

  /** The server's side empty, for a new group. */
  protected resetServer(): void {
    this.held = false; this.executions = 0; this.byReplan = 0; this.firstAt = Infinity; this.firstKind = ORIGINAL; this.keyRows = 0; this.stored = 0;
    this.handlerRuns = 0; this.over = 0; this.conflicts = 0; this.dedups = 0; this.mismatches = 0;
    this.events = 0;
  }

  /**
   * The server's answer to the group's request sent at `served[0]` carrying fingerprint `fp`, of a
   * call of `kind` (attempt.ts serve): a reply status, its time in `served[1]`, or LEAVES. Small
   * enough for the optimiser to inline into the attempts' loop; the handler's run is apart.
   */
  protected serveRetried(p: Params, fp: number, kind: number): number {
    const s = this.served[0] as number;
    if (p.storeDown && p.scope !== S_NONE) return LEAVES; // the store is down (an incident): fail closed or open, the general model's
    if (!this.held) return this.handled(p, fp, kind);
    // The key store's answer: the latest of the two writes at or before s, if still live.
    const found = s >= this.resultAt ? (this.resultType === RELEASE || s >= this.resultUntil ? NONE : this.resultType)
      : p.atomic && s < this.claimAt + p.runningLife ? RUNNING : NONE;
    if (found === NONE) return s >= this.resultAt ? this.handled(p, fp, kind) : LEAVES; // before the result: its rows would merge
    this.served[1] = s - s + p.fastReply;
    const status = p.fpChecked && this.execFp !== fp ? MISMATCH_422 : found === RUNNING ? CONFLICT_409 : found === DONE_OK ? OK : ERR_5XX;
    if (status === MISMATCH_422) this.mismatches++;
    else if (status === CONFLICT_409) this.conflicts++;
    else { this.dedups++; if (status === OK) this.stored = 1; }
    if (this.series !== null) this.noteAt(status === MISMATCH_422 ? SER.mismatches_422 : status === CONFLICT_409 ? SER.conflicts_409 : SER.dedup_hits, s + p.fastReply);
    return status;
  }

  /** The handler runs for the request sent at `served[0]` (attempt.ts execute): OK or a 5xx with its time in `served[1]`, or LEAVES (a crash). */
  private handled(p: Params, fp: number, kind: number): number {
    const s = this.served[0] as number; // not an argument: a double passed to a call the optimiser does not inline is boxed
    this.drawHandlerDelay(this.handlerDelay, 0);
    const delay = this.handlerDelay[0] as number;
    this.handlerRuns++;
    if (delay > p.timeout) this.over++;
    const u = this.outcomeDraw();
    const done = s + delay;
    this.served[1] = s - s + delay;
    if (u < p.errorRate) {
      // A 5xx before any side effect: stored under its key, or its claim released, or nothing written.
      if (p.scope !== S_NONE && p.storeErrors) this.wrote(p, fp, s, done, DONE_ERR, done + p.retention, p.atomic ? s : done);
      else if (p.scope !== S_NONE && p.atomic) this.wrote(p, fp, s, done, RELEASE, done, s);
      return ERR_5XX;
    }
    if (u < p.crashCut) return LEAVES; // a crash
    this.executions++;
    if (kind === REPLAN) this.byReplan++;
    if (done < this.firstAt) { this.firstAt = done; this.firstKind = kind; }
    if (this.series !== null) {
      this.noteAt(SER.executions, done);
      this.noteAt(SER.duplicates, done); // the first of the action's is taken off when it ends (retry-path.ts)
    }
    if (p.scope !== S_NONE) this.wrote(p, fp, s, done, DONE_OK, done + p.retention, p.atomic ? s : done);
    return OK;
  }

  /** The handler's writes under the key (its claim at `s` where atomic, its result of `type` at `at` live until `until`), and its row from `rowFrom` to `until`. */
  private wrote(p: Params, fp: number, s: number, at: number, type: number, until: number, rowFrom: number): void {
    this.held = KEY_LASTS[p.scope] !== 'attempt';
    this.claimAt = s; this.resultAt = at; this.resultType = type; this.resultUntil = until; this.execFp = fp;
    this.rowStart[this.keyRows] = rowFrom;
    this.rowEnd[this.keyRows++] = until;
  }

  /** A count of series `m` at `t`, kept until the group stays on the path. */
  protected noteAt(m: number, t: number): void {
    this.eventOf[this.events] = m;
    this.eventAt[this.events++] = t;
  }
}
