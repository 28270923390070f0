/**
 * Inbound delivery (docs/model.md, "Inbound delivery", version 4): a group whose actions are
 * started by a trigger that its sender delivers again until one delivery is acknowledged in
 * time. Each delivery that starts a run is an actor of its own, `2k + o` for delivery k of
 * action o (0 the primary, 1 its twin), so `i & 1` is still the action a run works for (its
 * key rows' owner, its intent key with a run id from the message) and `i` the run itself (its
 * intent key with a run id per delivery: S_RUN). The runs go on as versions 1 to 3 say; this
 * layer adds the deliveries, their deadlines and acknowledgements, and the counts that rank
 * executions by delivery. A layer of the engine's one class (engine-state.ts says why).
 *
 * Events run in time order: the next attempt sent, or the next deadline when it comes strictly
 * first (deadlines after every other event at the same instant). An acknowledgement after the
 * step is settled when the attempt that ends the step is handled, which is never after the
 * step's end: so every acknowledgement at or before a deadline is known when the deadline
 * comes. A delivery is settled at the deadline before it (its draws then), since nothing
 * between that deadline and the delivery can change it.
 */
import { binKey } from './bins.js';
import type { TriggerParams } from './compile.js';
import { C } from '../model/counters.js';
import { GroupModel } from './group.js';
import { SER } from '../model/series.js';
import { uniform } from '../random/uniform.js';

/** Counter of the duplicates made by each kind of call of the first executing run. */
const DUPLICATES_BY_KIND = [C.duplicates_transport, C.duplicates_replan, C.duplicates_replay];

export class DeliveryModel extends GroupModel {
  /** Per action of the group (0, 1): its arrival, its current delivery, that delivery's deadline (Infinity once one succeeded, or the sender gave up). */
  private readonly actArrival = new Float64Array(2);
  private readonly delivery = new Int32Array(2);
  private readonly deadline = new Float64Array(2);
  /** Whether a run of the action started (the consumer's record under dedupe: by_message), the free text of its latest original call, whether it was dead-lettered. */
  private readonly started = new Uint8Array(2);
  private readonly originalText = new Int32Array(2);
  private readonly deadLettered = new Uint8Array(2);
  /** Actors in use by the group: runs are 0 .. usedActors - 1. */
  private usedActors = 2;

  /** The trigger's parameters (the same in every incident window). */
  private get trig(): TriggerParams {
    return this.base.trigger as TriggerParams;
  }

  /** Simulates the chunk's group `g` (arrival `arrivals[g]`) with its deliveries, from its start. */
  protected simulateDelivered(g: number): void {
    const arrival = this.arrivals[g] as number;
    this.log.clear();
    this.totals.rows.beginGroup();
    this.nextCall = 0;
    this.nextText = 0;
    this.hooks.onGroup(arrival, 0);
    if (this.series !== null) this.series.add(SER.arrivals, arrival);
    for (let i = 0; i < this.usedActors; i++) {
      this.sendAt[i] = Infinity;
      this.runStarted[i] = 0;
    }
    this.usedActors = 2;
    const twin = this.twinDrawn();
    this.beginAction(0, arrival);
    if (twin) this.beginAction(1, arrival + uniform(this.rng, this.p.twinMin, this.p.twinMax));
    else this.deadline[1] = Infinity;
    this.runEvents();
    this.finishDelivered(0);
    if (twin) this.finishDelivered(1);
  }

  /** The group's events in time order until none is left. */
  private runEvents(): void {
    for (;;) {
      let next = -1;
      let s = Infinity;
      for (let j = 0; j < this.usedActors; j++) {
        const t = this.sendAt[j] as number;
        if (t < s) { s = t; next = j; }
      }
      const o = (this.deadline[0] as number) <= (this.deadline[1] as number) ? 0 : 1;
      if ((this.deadline[o] as number) < s) this.deadlinePassed(o);
      else if (next < 0) return;
      else this.sendAttempt(next);
    }
  }

  /** Action `o` arrives at `at`: its first delivery. */
  private beginAction(o: number, at: number): void {
    this.actArrival[o] = at;
    this.started[o] = 0;
    this.deadLettered[o] = 0;
    this.deliver(o, 0, at);
  }

  /** Delivery `k` of action `o` at `at`: a run, unless the consumer deduplicates it or dies first. */
  private deliver(o: number, k: number, at: number): void {
    const tp = this.trig;
    this.delivery[o] = k;
    this.deadline[o] = at + tp.window;
    if (this.series !== null) this.series.add(SER.deliveries, at);
    if (tp.dedupe && this.started[o]) {
      // The consumer knows the message: it acknowledges at once and starts no run.
      if (!this.ackLost()) this.deadline[o] = Infinity;
      return this.hooks.onDelivery(o, k, at, -1);
    }
    if (!tp.afterStep) {
      // ack: on_receipt: acknowledged first; the consumer may die right after.
      const died = tp.consumerCrash > 0 && this.rng.next() < tp.consumerCrash;
      if (!this.ackLost()) this.deadline[o] = Infinity;
      if (died) return this.hooks.onDelivery(o, k, at, -1);
    }
    this.startRun(o, k, at);
  }

  /** Delivery `k` of action `o` starts its run at `at`, with the free text its predecessor's original call had unless it drifts. */
  private startRun(o: number, k: number, at: number): void {
    const i = 2 * k + o;
    if (i >= this.sendAt.length) this.resizeActors(Math.max(2 * this.sendAt.length, 2 * k + 2));
    for (let j = this.usedActors; j <= i; j++) {
      this.sendAt[j] = Infinity;
      this.runStarted[j] = 0;
    }
    if (i >= this.usedActors) this.usedActors = i + 1;
    const drift = this.base.drift;
    const text = k === 0 || (drift > 0 && this.rng.next() < drift) ? this.nextText++ : (this.originalText[o] as number);
    this.originalText[o] = text;
    this.started[o] = 1;
    this.runStarted[i] = 1;
    this.acking[i] = this.trig.afterStep ? 1 : 0;
    this.startAction(i, at, text);
    this.arrival[i] = this.actArrival[o] as number;
    this.hooks.onDelivery(o, k, at, i);
  }

  /** Action `o`'s current delivery was not acknowledged by its deadline: the next delivery, or the sender gives up. */
  private deadlinePassed(o: number): void {
    const tp = this.trig;
    const k = this.delivery[o] as number;
    const at = this.deadline[o] as number;
    if (k < tp.redeliveries) return this.deliver(o, k + 1, at + (tp.schedule[Math.min(k, tp.schedule.length - 1)] as number));
    this.deadLettered[o] = 1;
    this.deadline[o] = Infinity;
    if (this.series !== null) this.series.add(SER.dead_lettered, at);
  }

  /** Whether an acknowledgement is lost on its way to the sender. */
  private ackLost(): boolean {
    const loss = this.trig.ackLoss;
    return loss > 0 && this.rng.next() < loss;
  }

  protected override stepEndedForDelivery(i: number, at: number, crashed: boolean): void {
    if (this.acking[i] === 0) return;
    this.acking[i] = 0; // only the run's first step end acknowledges: not its replay's, nor after a crash
    const o = i & 1;
    if (crashed || i >> 1 !== this.delivery[o] || at > (this.deadline[o] as number)) return;
    const tp = this.trig;
    if (tp.consumerCrash > 0 && this.rng.next() < tp.consumerCrash) return;
    if (!this.ackLost()) this.deadline[o] = Infinity;
  }

  protected override firstExecution(i: number): number {
    if (this.base.trigger === null) return this.execFirst[i] as number;
    let first = Infinity;
    for (let j = i & 1; j < this.usedActors; j += 2) if (this.runStarted[j] && (this.execFirst[j] as number) < first) first = this.execFirst[j] as number;
    return first;
  }

  /** Action `o` is over: its runs' counts, ranked by delivery, into the chunk's totals. */
  private finishDelivered(o: number): void {
    const t = this.totals;
    let n = 0, first = -1, latest = -Infinity, stored = 0;
    if (!this.runStarted[o]) this.zeroTallies(o); // its delivery started no run: the later runs' tallies gather there
    for (let j = o; j < this.usedActors; j += 2) {
      if (!this.runStarted[j]) continue;
      const c = this.execCount[j] as number;
      if (c > 0 && first < 0) first = j;
      n += c;
      latest = Math.max(latest, this.lastReturn[j] as number);
      stored |= this.gotStoredSuccess[j] as number;
      if (j !== o) this.foldTallies(o, j);
    }
    this.countTallies(o);
    t.count(C.keys, this.rows.owned(o));
    t.count(C.executions, n);
    const k = this.delivery[o] as number;
    t.count(C.deliveries, k + 1);
    t.count(C.redelivered, k > 0 ? 1 : 0);
    t.count(C.dead_lettered, this.deadLettered[o] as number);
    const sr = this.series;
    if (sr !== null) {
      if (n > 0) sr.add(SER.duplicates, this.execFirst[first] as number, -1);
      else sr.add(SER.lost, this.actArrival[o] as number);
    }
    if (n === 0) {
      t.count(C.lost, 1);
      if (stored) t.count(C.merged, 1);
    } else if (n > 1) {
      const kind = this.execFirstKind[first] as number;
      for (let c = 0; c < 3; c++) t.count(DUPLICATES_BY_KIND[c] as number, (this.execByKind[first * 3 + c] as number) - (c === kind ? 1 : 0));
      t.count(C.duplicates_redelivery, n - (this.execCount[first] as number));
      t.count(C.duplicates, n - 1);
      t.count(C.duplicated, 1);
    }
    if (latest > -Infinity) t.actionLatency.countKey(binKey(latest - (this.actArrival[o] as number)));
    t.actions++;
  }

  /** Run `j`'s tallies added to slot `o` (the action's first), so that the action counts them once. */
  private foldTallies(o: number, j: number): void {
    this.attemptsSent[o]! += this.attemptsSent[j] as number;
    this.mismatches422[o]! += this.mismatches422[j] as number;
    this.conflicts409[o]! += this.conflicts409[j] as number;
    this.dedupHits[o]! += this.dedupHits[j] as number;
    this.unknownOutcomes[o]! += this.unknownOutcomes[j] as number;
    this.storeUnavailable[o]! += this.storeUnavailable[j] as number;
  }

  private zeroTallies(o: number): void {
    this.attemptsSent[o] = 0;
    this.mismatches422[o] = 0;
    this.conflicts409[o] = 0;
    this.dedupHits[o] = 0;
    this.unknownOutcomes[o] = 0;
    this.storeUnavailable[o] = 0;
  }
}
