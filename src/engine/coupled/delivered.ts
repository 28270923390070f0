/**
 * A trigger in the coupled engine (docs/model.md, "Inbound delivery"): every delivery's run
 * competes for the workers as any other attempt does, so redeliveries can feed a storm. A
 * group's deliveries follow the shared rules (delivery.ts); here, where they meet time: a run's
 * first attempt and a deadline are events (a deadline of class LATE: after every other event of
 * its instant), and a group ends only once no deadline of it is to come. A layer of the coupled
 * engine's class (state.ts < server.ts < delivered.ts < coupled.ts).
 */
import { uniform } from '../../random/uniform.js';
import { CLIENT, CoupledServer, EV_SEND, LATE, EV_DEADLINE } from './server.js';

export class CoupledDelivered extends CoupledServer {
  /** A triggered group arrives at `x`: its primary's first delivery, and its twin's if it has one. */
  protected arriveDelivered(x: number): void {
    const g = this.newGroup();
    this.enter(g);
    this.beginGroup(x, g);
    const groups = this.groups;
    groups.acting[g] = 0;
    groups.atServer[g] = 0;
    const twin = this.twinDrawn();
    groups.twin[g] = twin ? 1 : 0;
    this.resetActor(2 * g);
    this.beginAction(2 * g, x);
    if (twin) {
      this.resetActor(2 * g + 1);
      this.beginAction(2 * g + 1, x + uniform(this.rng, this.p.twinMin, this.p.twinMax));
    }
    this.leave(g);
    this.maybeEnd(g);
  }

  protected override deadlineSet(a: number, at: number): void {
    this.groups.deadlines[a >> 1]!++;
    this.heap.push(at, LATE, EV_DEADLINE, a, this.delivery[a] as number);
  }

  protected override runStartedAt(i: number): void {
    this.groups.acting[this.groups.home[i >> 1] as number]!++;
    this.heap.push(this.sendAt[i] as number, CLIENT, EV_SEND, i, 0);
  }

  /** The deadline of delivery `k` of action `a` comes now: unless that delivery was acknowledged, the next one or the sender gives up. */
  protected deadlineCame(a: number, k: number): void {
    const g = a >> 1;
    this.enter(g);
    this.groups.deadlines[g]!--;
    if (this.delivery[a] === k && this.deadline[a] !== Infinity) this.deadlinePassed(a);
    this.leave(g);
    this.maybeEnd(g);
  }
}
