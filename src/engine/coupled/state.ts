/**
 * The coupled engine's state (docs/model.md, "Capacity"): many groups in flight at once, each
 * with its own key store and rows, driven through the same layers as the chunk engine (calls,
 * attempts, the server's rules, a group's end: engine-state.ts). Before an event of group g the
 * engine `enter`s it (the shared layers then see that group's store, rows and counters) and
 * `leave`s it after. Actor i of group g is 2g + 0 (the primary) or 2g + 1 (its twin).
 */
import { compile, S_NONE } from '../compile.js';
import { GroupModel } from '../group.js';
import { NO_HOOKS, type EngineHooks } from '../hooks.js';
import { Regimes } from '../regimes.js';
import { SeriesTally } from '../series-tally.js';
import { C } from '../../model/counters.js';
import { SER } from '../../model/series.js';
import type { Scenario } from '../../model/types.js';
import { Breaker } from './breaker.js';
import { RetryBudget } from './budget.js';
import { IN_FLIGHT_LIMITS, inFlightOverflow, type InFlightLimits } from './in-flight.js';
import { ActorSlots, GroupSlots } from './slots.js';

export class CoupledState extends GroupModel {
  /** The time of the event being handled. */
  protected now = 0;
  protected readonly groups = new GroupSlots();
  protected readonly side = new ActorSlots();
  protected readonly budget: RetryBudget | null;
  protected readonly breaker: Breaker | null;
  /** What the run may hold in flight at once (in-flight.ts; tests set smaller ones). */
  protected limits: InFlightLimits = IN_FLIGHT_LIMITS;

  constructor(scenario: Scenario, hooks: EngineHooks = NO_HOOKS, seriesStep: number | null = null) {
    super(compile(scenario), hooks);
    if (scenario.incidents.length > 0) this.regimes = new Regimes(scenario, this.base);
    if (seriesStep !== null) this.series = new SeriesTally(seriesStep, true); // a backlog past the buckets: the step doubles and the run goes on
    this.budget = scenario.client.retry_budget ? new RetryBudget(scenario.client.retry_budget) : null;
    this.breaker = scenario.client.breaker ? new Breaker(scenario.client.breaker) : null;
    this.budgeted = this.budget !== null;
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
    return g;
  }

  private growGroups(n: number): void {
    this.groups.grow(n, this.base.scope === S_NONE);
    this.side.grow(2 * n);
    this.resizeActors(2 * n);
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
      this.finishAction(i);
      t.count(C.shed, this.side.shed[i] as number);
      t.count(C.expired, this.side.expired[i] as number);
      t.count(C.budget_denied, this.side.denied[i] as number);
      t.count(C.breaker_rejected, this.side.rejected[i] as number);
    }
    this.rows.moveTo(t.rows);
    this.rows = t.rows;
    this.current = -1;
    this.groups.release(g);
  }

  protected override budgetAllows(i: number, timedOut: boolean): boolean {
    const taken = this.budget!.take(timedOut);
    if (taken >= 0) {
      this.side.tokens[i] = taken;
      return true;
    }
    this.side.denied[i]!++;
    if (this.series !== null) this.series.add(SER.budget_denied, this.attemptEnd[i] as number);
    return false;
  }

  protected override refundBudget(i: number): void {
    this.budget!.refund((this.attempt[i] as number) === 0 ? -1 : (this.side.tokens[i] as number));
  }
}
