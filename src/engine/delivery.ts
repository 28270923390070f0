/**
 * Inbound delivery (docs/model.md, "Inbound delivery", version 4): actions started by a trigger
 * that its sender delivers again until one delivery is acknowledged in time. Each delivery that
 * starts a run is an actor of its own; an action is named by the actor of its first delivery
 * (`a`), and its runs are chained from it (`nextRun`). This layer holds what both engines share:
 * the deliveries, their acknowledgements and the counts that rank executions by delivery. Where
 * a run's actor comes from and how a deadline is kept in time are each engine's (`runActor`,
 * `deadlineSet`, `runStartedAt`): the chunk engine's group runs its runs as actors 2k + action
 * (engine.ts), the coupled engine gives each redelivered run a slot of its own in its group
 * (coupled/delivered.ts). A layer of the engine's one class (engine-state.ts says why).
 *
 * Events run in time order, a deadline after every other event of its instant. An
 * acknowledgement after the step is settled when the step's end is (never later than that end),
 * so every acknowledgement at or before a deadline is known when the deadline comes. The next
 * delivery is settled at the deadline before it (its draws then), since nothing between that
 * deadline and the delivery can change it.
 */
import { binKey } from './bins.js';
import type { TriggerParams } from './compile.js';
import { C } from '../model/counters.js';
import { GroupModel } from './group.js';
import { SER } from '../model/series.js';
import { unit } from '../random/rng.js';

export class DeliveryModel extends GroupModel {
  /** The trigger's parameters (the same in every incident window). */
  protected get trig(): TriggerParams {
    return this.base.trigger as TriggerParams;
  }

  /** Action `a` (the actor of its first delivery) arrives at `at`: its first delivery. */
  protected beginAction(a: number, at: number): void {
    this.actArrival[a] = at;
    this.runBegun[a] = 0;
    this.deadLettered[a] = 0;
    this.lastRun[a] = -1;
    this.nextRun[a] = -1;
    this.runStarted[a] = 0;
    this.deliver(a, 0, at);
  }

  /** Delivery `k` of action `a` at `at`: a run, unless the consumer deduplicates it or dies first. */
  private deliver(a: number, k: number, at: number): void {
    this.worked();
    const tp = this.trig;
    this.delivery[a] = k;
    this.deadline[a] = at + tp.window;
    if (this.series !== null) this.series.add(SER.deliveries, at);
    let acked = false;
    let run = true;
    if (tp.dedupe && this.runBegun[a]) {
      // The consumer knows the message: it acknowledges at once and starts no run.
      acked = !this.ackLost();
      run = false;
    } else if (!tp.afterStep) {
      // ack: on_receipt: acknowledged first; the consumer may die right after.
      run = !(tp.consumerCrash > 0 && unit(this.rng.int32()) < tp.consumerCrash);
      acked = !this.ackLost();
    }
    if (acked) this.deadline[a] = Infinity;
    else this.deadlineSet(a, this.deadline[a] as number);
    if (run) this.startRun(a, k, at);
    else this.hooks.onDelivery(a, k, at, -1);
  }

  /** Delivery `k` of action `a` starts its run at `at`, with the free text its predecessor's original call had unless it drifts. */
  private startRun(a: number, k: number, at: number): void {
    const i = this.runActor(a, k);
    const drift = this.base.drift;
    const text = k === 0 || (drift > 0 && unit(this.rng.int32()) < drift) ? this.nextText++ : (this.originalText[a] as number);
    this.originalText[a] = text;
    this.runBegun[a] = 1;
    this.runStarted[i] = 1;
    this.runDelivery[i] = k;
    this.nextRun[i] = -1;
    const last = this.lastRun[a] as number;
    if (last >= 0) this.nextRun[last] = i;
    else if (i !== a) this.nextRun[a] = i; // the first delivery started no run: the chain still starts at a
    this.lastRun[a] = i;
    this.acking[i] = this.trig.afterStep ? 1 : 0;
    this.hooks.onDelivery(a, k, at, i); // before its first call: a tracer sets the run's row up
    this.startAction(i, at, text);
    this.arrival[i] = this.actArrival[a] as number;
    this.runStartedAt(i);
  }

  /** The actor that runs delivery `k` of action `a` (delivery 0's is `a`), its state free to reset. */
  protected runActor(a: number, _k: number): number {
    return a;
  }

  /** Action `a`'s current delivery has its deadline at `at` (the chunk engine reads `deadline`; the coupled one schedules it). */
  protected deadlineSet(_a: number, _at: number): void { /* read from deadline[] */ }

  /** Actor `i`'s run has started (its first send is at `sendAt[i]`). */
  protected runStartedAt(_i: number): void { /* the chunk engine's loop finds it */ }

  /** Action `a`'s current delivery was not acknowledged by its deadline: the next delivery, or the sender gives up. */
  protected deadlinePassed(a: number): void {
    const tp = this.trig;
    const k = this.delivery[a] as number;
    const at = this.deadline[a] as number;
    if (k < tp.redeliveries) return this.deliver(a, k + 1, at + (tp.schedule[Math.min(k, tp.schedule.length - 1)] as number));
    this.deadLettered[a] = 1;
    this.deadline[a] = Infinity;
    if (this.series !== null) this.series.add(SER.dead_lettered, at);
  }

  /** Whether an acknowledgement is lost on its way to the sender. */
  private ackLost(): boolean {
    const loss = this.trig.ackLoss;
    return loss > 0 && unit(this.rng.int32()) < loss;
  }

  /** The action actor `i` runs for (the actor of its first delivery). */
  protected actionOf(i: number): number {
    return i & 1;
  }

  protected override stepEndedForDelivery(i: number, at: number, crashed: boolean): void {
    if (this.acking[i] === 0) return;
    this.acking[i] = 0; // only the run's first step end acknowledges: not its replay's, nor after a crash
    const a = this.actionOf(i);
    if (crashed || this.runDelivery[i] !== this.delivery[a] || at > (this.deadline[a] as number)) return;
    const tp = this.trig;
    if (tp.consumerCrash > 0 && unit(this.rng.int32()) < tp.consumerCrash) return;
    if (!this.ackLost()) this.deadline[a] = Infinity;
  }

  protected override firstExecution(i: number): number {
    if (this.base.trigger === null) return this.execFirst[i] as number;
    let first = Infinity;
    for (let j = this.actionOf(i); j >= 0; j = this.nextRun[j] as number) if (this.runStarted[j] && (this.execFirst[j] as number) < first) first = this.execFirst[j] as number;
    return first;
  }

  /** Action `a` is over: its runs' counts, ranked by delivery, into the chunk's totals (`fold` adds a later run's own per-action counts to `a`'s). */
  protected finishDelivered(a: number, fold: (a: number, j: number) => void = () => undefined): void {
    const t = this.totals;
    let n = 0, first = -1, latest = -Infinity, stored = 0;
    if (!this.runStarted[a]) this.resetTallies(a); // its delivery started no run: the later runs' tallies gather there
    for (let j = a; j >= 0; j = this.nextRun[j] as number) {
      if (!this.runStarted[j]) continue;
      const c = this.execCount[j] as number;
      if (c > 0 && first < 0) first = j;
      n += c;
      latest = Math.max(latest, this.lastReturn[j] as number);
      stored |= this.gotStoredSuccess[j] as number;
      if (j !== a) { this.foldTallies(a, j); fold(a, j); }
    }
    this.countTallies(a);
    t.count(C.keys, this.rows.owned(a & 1));
    t.count(C.executions, n);
    const k = this.delivery[a] as number;
    t.count(C.deliveries, k + 1);
    t.count(C.redelivered, k > 0 ? 1 : 0);
    t.count(C.dead_lettered, this.deadLettered[a] as number);
    const sr = this.series;
    if (sr !== null) {
      if (n > 0) sr.add(SER.duplicates, this.execFirst[first] as number, -1);
      else sr.add(SER.lost, this.actArrival[a] as number);
    }
    this.countExecutions(n, stored, first, n > 0 ? n - (this.execCount[first] as number) : 0);
    if (latest > -Infinity) t.actionLatency.countKey(binKey(latest - (this.actArrival[a] as number)));
    t.actions++;
  }

  /** Run `j`'s tallies added to slot `a` (the action's first), so that the action counts them once. */
  private foldTallies(a: number, j: number): void {
    this.attemptsSent[a]! += this.attemptsSent[j] as number;
    this.mismatches422[a]! += this.mismatches422[j] as number;
    this.conflicts409[a]! += this.conflicts409[j] as number;
    this.dedupHits[a]! += this.dedupHits[j] as number;
    this.unknownOutcomes[a]! += this.unknownOutcomes[j] as number;
    this.storeUnavailable[a]! += this.storeUnavailable[j] as number;
  }
}
