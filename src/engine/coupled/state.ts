/**
 * The coupled engine's state (docs/model.md, "Capacity"): many groups in flight at once, each
 * with its own key store and rows, driven through the same layers as the chunk engine (calls,
 * attempts, the server's rules, a group's end: engine-state.ts). Before an event of group g the
 * engine `enter`s it (the shared layers then see that group's store, rows and counters) and
 * `leave`s it after. Actor i of group g is 2g + 0 (the primary) or 2g + 1 (its twin). With a
 * trigger, a redelivered run takes a slot r of its own whose actor 2r + 0 or 1 acts for the
 * same action of its group (`groups.home[r]`: the key store, rows and numbering are the group's).
 */
import { compile, S_NONE } from '../compile.js';
import { DeliveryModel } from '../delivery.js';
import { NO_HOOKS, type EngineHooks } from '../hooks.js';
import { Regimes } from '../regimes.js';
import { SeriesTally } from '../series-tally.js';
import { C } from '../../model/counters.js';
import type { Scenario } from '../../model/types.js';
import type { GuardName } from '../../model/guards.js';
import { grown } from './grow.js';
import { RunawayWork } from '../runaway.js';
import { guardsInForce, type GuardInForce } from './guards.js';
import { IN_FLIGHT_LIMITS, inFlightOverflow, type InFlightLimits } from './in-flight.js';
import { ActorSlots, GroupSlots } from './slots.js';

export class CoupledState extends DeliveryModel {
  /** The time of the event being handled. */
  protected now = 0;
  protected readonly groups = new GroupSlots();
  protected readonly side = new ActorSlots();
  /** The client guards in force (guards.ts), in the order a retry passes them, each with what it stopped of each actor's action; those that act at the send. */
  protected readonly guards: readonly Guarding[];
  protected readonly sendGuards: readonly Guarding[];
  /** What the run may hold in flight at once (in-flight.ts; tests set smaller ones). */
  protected limits: InFlightLimits = IN_FLIGHT_LIMITS;

  /**
   * The chunk engine's bound on work (runaway.ts), counted over the whole run: `maxWork` attempts and
   * deliveries for each chunk of arrivals fed (`feed` adds them to `workAllowed`), the drain after
   * the last included. Not per block: a block counts the groups that end in it, while the work of
   * the many in flight falls in earlier ones. So a run's work, and the time no signal can stop it
   * in (one simulation, yielding only between chunks), is bounded as the chunk engine's is, while a
   * fair run's retries and redeliveries of earlier arrivals, spread over the run, are never refused.
   * What a coupled run holds at once is bounded by `limits`.
   */
  protected workAllowed = 0;
  private workDone = 0;
  protected override worked(): void {
    if (++this.workDone > this.workAllowed) throw new RunawayWork(this.maxWork, 'fed');
  }

  constructor(scenario: Scenario, hooks: EngineHooks = NO_HOOKS, seriesStep: number | null = null) {
    super(compile(scenario), hooks);
    if (scenario.incidents.length > 0) this.regimes = new Regimes(scenario, this.base);
    if (seriesStep !== null) this.series = new SeriesTally(seriesStep, true); // a backlog past the buckets: the step doubles and the run goes on
    this.guards = guardsInForce(scenario).map((g) => ({ ...g, stops: new Int32Array(0) }));
    this.sendGuards = this.guards.filter((g) => g.acts === 'send');
    this.guarded = this.guards.length > 0;
    this.verifyWhenDue = true;
    this.growGroups(64);
  }

  /** A slot for a new group, the slots grown when all are taken. */
  protected newGroup(): number {
    let g = this.groups.take();
    if (g < 0) {
      const n = this.groups.capacity * 2;
      const keyed = this.base.scope !== S_NONE;
      const most = keyed ? this.limits.keyedActions : this.limits.actions;
      if (n > most) throw inFlightOverflow(most, keyed ? 'actions in flight (each with its key store)' : 'actions in flight', this.now);
      this.growGroups(n);
      g = this.groups.take();
    }
    this.groups.home[g] = g;
    this.groups.deadlines[g] = 0;
    return g;
  }

  private growGroups(n: number): void {
    this.groups.grow(n, this.base.scope === S_NONE);
    this.side.grow(2 * n);
    this.resizeActors(2 * n);
    for (const g of this.guards) {
      g.guard.grow(2 * n);
      g.stops = grown(g.stops, 2 * n);
    }
  }

  /** The group the shared layers act for now (-1: none). */
  private current = -1;

  /** The shared layers now act for group `g`: its key store, rows and numbering. */
  protected enter(g: number): void {
    if (g === this.current) return;
    if (this.current >= 0) this.leave(this.current);
    this.current = g;
    this.log = this.groups.logs[g]!;
    this.rows = this.groups.rows[g]!;
    this.nextCall = this.groups.nextCall[g] as number;
    this.nextText = this.groups.nextText[g] as number;
  }

  protected leave(g: number): void {
    this.groups.nextCall[g] = this.nextCall;
    this.groups.nextText[g] = this.nextText;
  }

  /** Group `g` (entered) is over, its actors done and no request of it left at the server: its counts into the totals. */
  protected endGroup(g: number): void {
    const t = this.totals;
    const twin = this.groups.twin[g] === 1;
    for (let i = 2 * g; i < 2 * g + (twin ? 2 : 1); i++) {
      if (this.base.trigger === null) this.finishAction(i);
      else this.finishDelivered(i, this.foldCapacity);
      t.count(C.shed, this.side.shed[i] as number);
      t.count(C.expired, this.side.expired[i] as number);
      for (const g of this.guards) t.count(g.counter, g.stops[i] as number);
      if (this.base.trigger !== null) this.releaseRuns(i);
    }
    this.rows.flushTo(t.grid);
    this.rows = t.rows;
    this.current = -1;
    this.groups.release(g);
  }

  /** A later run `j` of action `a`: its counts of the server's and the guards' stops added to `a`'s (delivery.ts counts the action once). */
  private readonly foldCapacity = (a: number, j: number): void => {
    this.side.shed[a]! += this.side.shed[j] as number;
    this.side.expired[a]! += this.side.expired[j] as number;
    for (const g of this.guards) g.stops[a]! += g.stops[j] as number;
  };

  /** The slots of action `a`'s redelivered runs are free again (its first delivery's is its group's). */
  private releaseRuns(a: number): void {
    for (let j = this.nextRun[a] as number; j >= 0; j = this.nextRun[j] as number) this.groups.release(j >> 1);
  }

  protected override actionOf(i: number): number {
    return 2 * (this.groups.home[i >> 1] as number) + (i & 1);
  }

  /** Delivery k >= 1 of action `a` runs in a slot of its own, acting for `a`'s group. */
  protected override runActor(a: number, k: number): number {
    if (k === 0) return a;
    const r = this.newGroup();
    this.groups.home[r] = a >> 1;
    const i = 2 * r + (a & 1);
    this.resetActor(i);
    return i;
  }

  /** Actor `i`'s action starts: its counts of the server's and the guards' stops at 0. */
  protected resetActor(i: number): void {
    this.side.reset(i);
    for (const g of this.guards) g.stops[i] = 0;
  }

  protected override retryAllowed(i: number, status: number): boolean {
    for (const g of this.guards) {
      if (g.acts === 'retry' && !g.guard.allowsRetry(i, status)) {
        this.stopped(g, i, this.attemptEnd[i] as number);
        return false;
      }
    }
    return true;
  }

  protected override attemptSucceeded(i: number): void {
    const first = (this.attempt[i] as number) === 0;
    for (const g of this.guards) g.guard.succeeded(i, first);
  }

  /** Guard `g` stopped actor `i`'s retry or attempt at `at`: counted in its counter and series. */
  protected stopped(g: Guarding, i: number, at: number): void {
    g.stops[i]!++;
    if (this.series !== null) this.series.add(g.series, at);
    this.guardStopped(i, g.name);
  }

  /** Who hears that guard `name` stopped actor `i`'s call (the tracer); nobody by default. */
  protected guardStopped(_i: number, _name: GuardName): void { /* nobody listens */ }
}

/** A guard in force with what it stopped of each actor's action. */
interface Guarding extends GuardInForce {
  stops: Int32Array;
}
