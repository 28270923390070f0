/**
 * The coupled engine (docs/model.md, "Capacity"): with workers, a retry budget or a breaker,
 * every action shares the service and the client with every other, so the run is one
 * discrete-event simulation in time order. Events (heap.ts): an attempt's send, its outcome
 * reaching the client (a reply, or its timeout), a worker coming free, a window edge; arrivals
 * come from the chunk plans, fed in order. Every rule of a call, an attempt and the server's
 * handling is the chunk engine's own (state.ts says how the layers are shared); the coupled
 * layers add only what capacity adds: the workers and queue (server.ts), the client's guards
 * (guards.ts), and when each step happens (here).
 */
import { drawArrivals } from '../arrivals.js';
import { REPLAN } from '../calls.js';
import { LOST_REQUEST, NO_REPLY, OK } from '../attempt.js';
import { binKey } from '../bins.js';
import { D_NONE, withinTimeout } from '../draws.js';
import type { ChunkOutput } from '../chunk-output.js';
import type { EngineHooks } from '../hooks.js';
import { S_NONE } from '../compile.js';
import { CHUNK_ACTIONS, type ChunkPlan } from '../plan.js';
import { clockOf, type Clock } from '../../model/clock.js';
import { offeredUtilisation } from '../../model/offered.js';
import { SER } from '../../model/series.js';
import type { Scenario } from '../../model/types.js';
import type { Rng } from '../../random/rng.js';
import { uniform } from '../../random/uniform.js';
import type { KeyGrid } from '../peak.js';
import type { InFlightLimits } from './in-flight.js';
import type { SaturationTally } from './saturation.js';
import { CoupledDelivered } from './delivered.js';
import { CLIENT, EV_DEADLINE, EV_FREE, EV_REPLY, EV_SEND, SERVER } from './server.js';

export interface CoupledSpec {
  scenario: Scenario;
  /** The event stream (arrivals come from each chunk's own, `feed`). */
  rng: Rng;
  /** The run's peak grid, which its key rows are written to as groups end (the run's sums' own, `RunState.grid`). */
  grid: KeyGrid;
  seriesStep: number | null;
  /** The load's end T (ms): utilisation counts handler time in [0, T). */
  loadEnd: number;
  /** Who hears every group's story (the action timeline's tracer); none by default. */
  hooks?: EngineHooks;
  /** false: every group through the general steps (tests compare the two ways; the tracer needs it). */
  fastPath?: boolean;
  /** Called with each block of CHUNK_ACTIONS finished primaries, and with the last block (with the series) at `flush`. */
  emit: (out: ChunkOutput) => void;
  /** What the run may hold in flight at once; in-flight.ts's by default (tests give smaller ones). */
  limits?: InFlightLimits;
  /** Where the saturated time is also counted per bucket (the lab's chart, saturation.ts); none by default. */
  saturationTally?: SaturationTally;
}

export class CoupledSimulator extends CoupledDelivered {
  private readonly clock: Clock;
  /** The arrivals fed and not yet simulated: `arrivals[next .. pending)`, times from `arrivalOffset`. */
  private pending = 0;
  private next = 0;
  private arrivalOffset = 0;
  /** The block being counted: its finished primaries and index, and calls returning success. */
  private blockPrimaries = 0;
  private blockIndex = 0;
  private succeeded = 0;
  /** Whether one uniform settles the first decisions of a group arriving to a free worker (draws.ts), and whether simple ones are then counted here (`simpleArrival`). */
  private readonly settles: boolean;
  private readonly inline: boolean;

  constructor(private readonly spec: CoupledSpec) {
    super(spec.scenario, spec.hooks, spec.seriesStep, spec.loadEnd);
    if (spec.limits !== undefined) this.limits = spec.limits;
    if (spec.saturationTally !== undefined) this.saturation.tally = spec.saturationTally;
    this.rng = spec.rng;
    this.clock = clockOf(spec.scenario);
    this.series?.begin(0);
    this.totals.reset(0, spec.grid); // a coupled run's times are the run's: its blocks start at 0
    // One uniform settles a group's first decisions only where they all come at its arrival: to
    // a free worker, with no replay after a success (its draw would come at the return), no
    // window, no client guard. A simple group's later steps then draw nothing and touch nothing
    // shared, so it can be counted whole at its arrival (not with hooks: they hear its steps).
    const p = this.base;
    this.settles = this.regimes === null && !this.guarded && p.crashP === 0 && p.trigger === null;
    this.inline = this.settles && spec.fastPath !== false && spec.hooks === undefined;
  }

  /** The next chunk's arrivals, drawn from its own stream (as the chunk engine draws them). */
  feed(plan: ChunkPlan, rng: Rng): void {
    this.workAllowed += this.maxWork;
    this.arrivals = drawArrivals(rng, plan, this.clock, this.arrivals);
    this.pending = plan.actions;
    this.next = 0;
    this.arrivalOffset = plan.offset;
  }

  /**
   * Runs events in time order until the fed arrivals are used up or, with `drain` (nothing more to
   * feed), until none is left: true then. False when it stopped after `events` events first (a
   * caller that yields to the event loop between slices hears signals: drive.ts); calling it again
   * goes on where it stopped, the same events in the same order.
   */
  simulate(drain: boolean, events = Infinity): boolean {
    const heap = this.heap;
    const timeouts = this.timeouts;
    for (let handled = 0; ; handled++) {
      if (handled >= events) return false;
      let na: number;
      if (this.next < this.pending) na = this.arrivalOffset + (this.arrivals[this.next] as number);
      else if (drain) na = Infinity;
      else return true;
      // The earliest event: the heap's, or the first timeout (a client event) when it comes before.
      const ht = heap.peekTime();
      const tt = timeouts.peekTime();
      const timeoutFirst = tt < ht || (tt === ht && tt !== Infinity && heap.peekClass() !== SERVER && (heap.peekClass() !== CLIENT || timeouts.peekSeq() < heap.peekSeq()));
      const et = timeoutFirst ? tt : ht;
      if (et < na || (et === na && et !== Infinity && !timeoutFirst && heap.peekClass() === SERVER)) {
        this.now = et;
        if (timeoutFirst) {
          timeouts.pop();
          this.learn(timeouts.topA, timeouts.topB, false);
        } else {
          heap.pop();
          this.dispatch();
        }
      } else if (na !== Infinity) {
        this.next++;
        this.now = na;
        this.arrive(na);
      } else {
        return true;
      }
    }
  }

  protected override nothingElseNow(): boolean {
    const now = this.now;
    return this.heap.peekTime() > now && this.timeouts.peekTime() > now && !(this.next < this.pending && this.arrivalOffset + (this.arrivals[this.next] as number) <= now);
  }

  protected override replyReached(i: number, serial: number): void {
    this.learn(i, serial, true);
  }

  /** The last block, with the run's series. */
  flush(): void {
    this.emitBlock(true);
  }

  private dispatch(): void {
    const heap = this.heap;
    switch (heap.topKind) {
      case EV_SEND: return this.send(heap.topA);
      case EV_REPLY: return this.learn(heap.topA, heap.topB, true);
      case EV_FREE: return this.free(heap.topA);
      case EV_DEADLINE: return this.deadlineCame(heap.topA, heap.topB);
      default: return this.edge();
    }
  }

  /** A group arrives at `x`: its primary starts, and its twin is drawn (docs/model.md). */
  private arrive(x: number): void {
    if (this.base.trigger !== null) return this.arriveDelivered(x);
    if (this.settles && this.running < this.workers.at(x)) {
      const u = this.rng.next();
      const simpleP = this.base.reach[D_NONE] as number;
      // NaN: not simple (belowQuick(1) is NaN: no NaN constant, which made every value boxed), or a
      // latency the table does not draw quickly (the general steps then give a simple group the same numbers).
      const quick = this.base.cut.belowQuick(this.inline && u < simpleP ? u / simpleP : 1);
      if (quick === quick) return this.simpleArrival(x, quick);
      this.script(this.base, u);
    }
    const g = this.newGroup();
    this.enter(g);
    this.beginGroup(x, g);
    const i = 2 * g;
    const twin = this.twinDrawn();
    this.groups.twin[g] = twin ? 1 : 0;
    this.groups.acting[g] = twin ? 2 : 1;
    this.groups.atServer[g] = 0;
    this.resetActor(i);
    this.startAction(i, x);
    if (twin) {
      this.resetActor(i + 1);
      this.startAction(i + 1, x + uniform(this.rng, this.p.twinMin, this.p.twinMax));
      this.heap.push(this.sendAt[i + 1] as number, CLIENT, EV_SEND, i + 1, 0);
    }
    this.send(i); // its first attempt goes now
    this.endScript();
  }

  /**
   * A simple group (its first decisions settled by one uniform, draws.ts) whose first attempt
   * starts at once with a free worker, runs in time and is answered, counted here whole, its
   * latency `drawn` from that uniform as draws.ts's drawHandlerDelay draws it. Its later steps
   * draw nothing and change nothing others see, so the run's sums are the same as through the
   * general steps (test/coupled-fast-path.test.ts); only the block a group is counted in moves.
   */
  private simpleArrival(x: number, drawn: number): void {
    const p = this.base;
    const delay = withinTimeout(drawn, p);
    const done = x + delay;
    const t = this.totals;
    if (this.series !== null) {
      this.series.add(SER.arrivals, x);
      this.series.add(SER.attempts, x);
      this.series.add(SER.executions, done);
      this.series.add(SER.succeeded, done);
    }
    t.handlerRuns++;
    t.simpleGroups++;
    if (p.scope !== S_NONE) t.grid.addRow(p.atomic ? x : done, done + p.retention);
    t.simpleLatency.countKey(binKey(delay));
    t.actions++;
    this.occupy(-1, x, x, done);
    this.succeeded++;
    this.groupEnded();
  }

  /** Actor `i`'s next attempt is due now: rejected by an open breaker, lost on the way, or at the server. */
  private send(i: number): void {
    this.worked(); // an attempt, or a send a guard stops: either is work (state.ts)
    const x = this.now;
    const g = this.groups.home[i >> 1] as number;
    this.enter(g);
    if (this.regimes !== null) this.p = this.regimes.at(x);
    if (this.p.verify && this.kind[i] === REPLAN && this.attempt[i] === 0 && this.firstExecution(i) <= x) {
      // The read tool, when the re-plan is due, finds the action done: no re-plan, the step ends now.
      this.attemptEnd[i] = x;
      this.stepEnded(i);
      return this.afterMove(i, g);
    }
    const serial = (this.side.serial[i] as number) + 1;
    for (const s of this.sendGuards) {
      if (s.guard.allowsSend(x, i, serial)) continue;
      // Not an attempt: the call ends now as a definite failure (the model may re-plan it).
      this.stopped(s, i, x);
      this.attemptEnd[i] = x;
      this.endCall(i, false, false);
      return this.afterMove(i, g);
    }
    this.side.serial[i] = serial;
    this.side.learned[i] = 0;
    this.side.replied[i] = 0;
    this.attemptsSent[i]!++;
    const key = this.keyOf(i);
    this.side.key[i] = key;
    if (this.requestLost()) this.timeoutAt(x + this.p.timeout, i, serial);
    else this.arriveAtServer(i, g, key, x);
    this.leave(g);
  }

  /** The client learns the outcome of actor `i`'s attempt `serial` now: a reply, or its timeout (ignored when a reply came in time, or the attempt is past). */
  private learn(i: number, serial: number, reply: boolean): void {
    const side = this.side;
    if (side.serial[i] !== serial || side.learned[i] === 1 || (!reply && side.replied[i] === 1)) return;
    const x = this.now;
    const g = this.groups.home[i >> 1] as number;
    this.enter(g);
    side.learned[i] = 1;
    if (this.regimes !== null) this.p = this.regimes.at(this.sendAt[i] as number);
    const status = reply ? (side.status[i] as number) : NO_REPLY;
    this.replyAfter[i] = reply ? (side.after[i] as number) : 0;
    for (const k of this.guards) k.guard.learned(x, i, serial, status);
    if (status === OK) {
      this.succeeded++;
      if (this.series !== null) this.series.add(SER.succeeded, x);
    }
    this.clientLearns(i, side.key[i] as number, status, reply ? (side.by[i] as number) : LOST_REQUEST, reply);
    this.afterMove(i, g);
    this.leave(g);
  }

  /** After actor `i`'s step: its next attempt is scheduled, or its action is over. */
  private afterMove(i: number, g: number): void {
    const next = this.sendAt[i] as number;
    if (next !== Infinity) {
      this.heap.push(next, CLIENT, EV_SEND, i, 0);
      return this.leave(g);
    }
    this.groups.acting[g]!--;
    this.leave(g);
    this.maybeEnd(g);
  }

  protected override groupEnded(): void {
    if (++this.blockPrimaries === CHUNK_ACTIONS) this.emitBlock(false);
  }

  /** The block's output (the series only with the last), then a fresh block. */
  private emitBlock(last: boolean): void {
    const plan: ChunkPlan = { index: this.blockIndex++, actions: this.blockPrimaries, offset: 0, span: 0, opOffset: 0, opSpan: 0 };
    const out = this.totals.output(plan, this.p.scope !== S_NONE, last ? this.series : null);
    out.capacity = { queueWait: this.queueWait.toData(), busyUs: this.busy, loadMs: this.spec.loadEnd, started: this.started, succeeded: this.succeeded };
    if (last) out.capacity.saturation = { ...this.saturation.finish(this.now), offered: offeredUtilisation(this.spec.scenario) };
    this.spec.emit(out);
    this.totals.reset(0, this.spec.grid);
    this.queueWait.reset();
    this.busy = 0;
    this.started = 0;
    this.succeeded = 0;
    this.blockPrimaries = 0;
  }
}
