/**
 * The simulation of docs/model.md, one chunk of primary actions at a time.
 *
 * Keys never cross business identities, so an action and its twin (a "group") are simulated
 * alone against a tiny private key store. The engine is one class in layers, one per file
 * (engine-state.ts says why): the random decisions (draws.ts), the state, an action's calls
 * (calls.ts), an attempt (attempt.ts), a group (group.ts), into the chunk's totals
 * (chunk-output.ts). Here, the top layer: the chunk's arrivals and the one hot loop, with its
 * fast path.
 */
import { drawArrivals } from './arrivals.js';
import { FRESH_KEY } from './attempt.js';
import { binKey } from './bins.js';
import type { ChunkOutput } from './chunk-output.js';
import { clockOf, type Clock } from '../model/clock.js';
import { compile, S_NONE, type Params } from './compile.js';
import { simpleChances, type SimpleChances } from './draws.js';
import { DeliveryModel } from './delivery.js';
import { DueRuns } from './due-runs.js';
import { NO_HOOKS, type EngineHooks } from './hooks.js';
import { Regimes, type FastSpan } from './regimes.js';
import type { ChunkPlan } from './plan.js';
import { SER } from '../model/series.js';
import { uniform } from '../random/uniform.js';
import { SeriesTally } from './series-tally.js';
import type { Rng } from '../random/rng.js';
import type { Scenario } from '../model/types.js';

export { CONFLICT_409, ERR_5XX, FRESH_KEY, FROM_STORE, HANDLER, LOST_REQUEST, MISMATCH_422, NO_KEY, NO_REPLY, OK, SHED_503, STORE_503 } from './attempt.js';
export { ORIGINAL, REPLAN, REPLAY } from './calls.js';
export { detachedOutput, type ChunkOutput } from './chunk-output.js';

/** Simulates chunks of one scenario; reuse one instance for many chunks. */
export class ChunkSimulator extends DeliveryModel {
  /** What the fast path draws for a group (draws.ts). */
  private readonly simple: SimpleChances;
  /** Whether this chunk tries the fast path. */
  private tryFast = true;
  /**
   * Whether the fast path ran at least half the groups of the last chunk that tried it. A
   * boolean, not the share itself: a field that starts as a small integer and is later set to
   * a fraction changes the object's shape, which threw the optimised engine away in every
   * thread's first chunks.
   */
  private fastPaidOff = true;
  /** The run's clock (arrivals are drawn in its operational time). */
  private readonly clock: Clock;
  /** With incident windows, this chunk's spans of time and the parameters the fast path uses in each (Regimes.fastSpans). */
  private spans: FastSpan[] = [];
  /** Which windows the last chunk met (`Regimes.spanSignature`): on leaving or entering one, the fast path is tried afresh. */
  private spanSignature = '';

  /**
   * `gridStep`: the run's peak grid step in ms (see `gridStepFor`). `fastPath: false` sends
   * every group through the general model; the outputs are the same (tests compare them).
   * `hooks` hear every group's story (on the general model only: a tracer sets `fastPath: false`).
   * `seriesStep`: count the run's series in buckets of this many ms (null: none).
   */
  constructor(
    scenario: Scenario, private readonly gridStep: number, private readonly fastPath = true,
    hooks: EngineHooks = NO_HOOKS, seriesStep: number | null = null,
  ) {
    super(compile(scenario), hooks);
    this.simple = simpleChances(this.p);
    this.clock = clockOf(scenario);
    if (scenario.incidents.length > 0) this.regimes = new Regimes(scenario, this.base);
    if (seriesStep !== null) this.series = new SeriesTally(seriesStep);
  }

  /** Simulates one chunk with the chunk's own stream. */
  run(rng: Rng, plan: ChunkPlan): ChunkOutput {
    this.rng = rng;
    this.totals.reset();
    this.p = this.base;
    this.offset = plan.offset;
    this.series?.begin(plan.offset);
    if (this.regimes !== null) {
      this.spans = this.regimes.fastSpans(plan.offset);
      // A slowdown switches the fast path off (it stops paying); the steady time after it must not inherit that.
      const signature = this.regimes.signature(this.spans);
      if (signature !== this.spanSignature) this.fastPaidOff = true;
      this.spanSignature = signature;
    }
    this.arrivals = drawArrivals(this.rng, plan, this.clock, this.arrivals);
    // Where few groups are simple (mission 2: most first attempts time out) the fast path
    // would redraw most groups for nothing: it is tried while it ran half the last chunk's.
    this.tryFast = this.fastPath && this.fastPaidOff;
    this.simulateArrivals(plan.actions);
    if (this.tryFast) this.fastPaidOff = this.totals.simpleGroups / Math.max(1, plan.actions) >= 0.5;
    return this.totals.output(plan, this.p.scope !== S_NONE, this.gridStep, this.series);
  }

  /**
   * The hot loop, in a method of its own: code that runs once per chunk would reach the
   * optimiser without type feedback and throw the loop back to the interpreter each chunk.
   *
   * Most groups are simple: no twin, and the first attempt of the first call is executed and
   * answered in time, with no replay after it (about 96% of the lab's). The loop runs those
   * itself: it makes the general model's draws for such a group (draws.ts's `simpleChances`,
   * which says how that order is kept) as far as it can tell the group is simple; when it is
   * not, it rewinds the stream and `simulateGroup` runs the group from its start.
   * test/fast-path.test.ts checks that chunks come out the same with and without this path.
   * It is written out here rather than in methods because the optimiser inlines only so much
   * into one function, and a double passed to or returned from a call it does not inline is
   * boxed: an allocation per group.
   *
   * With incident windows the chunk is cut into spans of time (incidents.ts, `fastSpans`): in
   * each the fast path runs with the parameters in force there, and where a group could meet
   * two sets of them (the timeout before a change) every group goes through the general model.
   */
  private simulateArrivals(n: number): void {
    if (this.base.trigger !== null) {
      for (let g = 0; g < n; g++) this.simulateDelivered(g);
      return;
    }
    if (this.regimes === null) return this.simulateSpan(0, n, this.base, this.simple);
    const arrivals = this.arrivals;
    let a = 0;
    for (const span of this.spans) {
      let b = a;
      while (b < n && (arrivals[b] as number) < span.to) b++;
      if (span.fast) this.simulateSpan(a, b, span.fast.params, span.fast.simple);
      else for (let g = a; g < b; g++) this.simulateGroup(g);
      a = b;
      if (a >= n) return;
    }
  }

  /** A triggered group's runs (actor 2k + action for delivery k: delivery.ts) by their next send; only those in it are read. */
  private readonly due = new DueRuns();

  /** Simulates the chunk's group `g` (arrival `arrivals[g]`) with its deliveries (docs/model.md, "Inbound delivery"), from its start. */
  private simulateDelivered(g: number): void {
    const arrival = this.arrivals[g] as number;
    this.totals.rows.beginGroup();
    this.beginGroup(arrival, 0);
    this.due.clear();
    const twin = this.twinDrawn();
    this.beginAction(0, arrival);
    if (twin) this.beginAction(1, arrival + uniform(this.rng, this.p.twinMin, this.p.twinMax));
    else this.deadline[1] = Infinity;
    this.runEvents();
    this.finishDelivered(0);
    if (twin) this.finishDelivered(1);
  }

  /**
   * The group's events in time order until none is left: the next attempt (of the runs by their
   * next send, `due`; at a tie the lower actor first), or a deadline when it comes strictly first.
   * Handling an attempt moves only its own run's next send (the server answers at once here), and
   * a delivery's new run enters `due` as it starts (runStartedAt).
   */
  private runEvents(): void {
    const due = this.due;
    for (;;) {
      const s = due.size > 0 ? due.topTime() : Infinity;
      const a = (this.deadline[0] as number) <= (this.deadline[1] as number) ? 0 : 1;
      if ((this.deadline[a] as number) < s) { this.deadlinePassed(a); continue; }
      if (due.size === 0) return;
      const i = due.pop();
      this.sendAttempt(i);
      const next = this.sendAt[i] as number;
      if (next !== Infinity) due.push(next, i);
    }
  }

  protected override runStartedAt(i: number): void {
    this.due.push(this.sendAt[i] as number, i);
  }

  protected override runActor(a: number, k: number): number {
    const i = 2 * k + a;
    if (i >= this.sendAt.length) this.resizeActors(Math.max(2 * this.sendAt.length, i + 2));
    return i;
  }

  /** Groups [from, to) of the chunk, the simple ones by the fast path with the parameters `p` (and their chances `simple`). */
  private simulateSpan(from: number, to: number, p: Params, simple0: SimpleChances): void {
    const t = this.totals;
    const rng = this.rng;
    const { before, after } = simple0;
    const fast = this.tryFast;
    const sr = this.series;
    for (let a = from; a < to; a++) {
      if (!fast) { this.simulateGroup(a); continue; }
      const s = this.arrivals[a] as number;
      rng.mark();
      let simple = true;
      for (let k = 0; simple && k < before.length; k++) simple = rng.next() >= (before[k] as number);
      const delay = simple ? p.latency.sample(rng) * p.latencyScale : 0; // × 1 outside incidents: the same number
      simple &&= delay <= p.timeout;
      for (let k = 0; simple && k < after.length; k++) simple = rng.next() >= (after[k] as number);
      if (!simple) {
        rng.rewind();
        this.simulateGroup(a);
        continue;
      }
      // One attempt, one execution, one key record unless unkeyed; the call's latency is the action's.
      const done = s + delay;
      if (sr !== null) {
        sr.add(SER.arrivals, s);
        sr.add(SER.attempts, s);
        sr.add(SER.executions, done);
      }
      t.handlerRuns++;
      t.simpleGroups++;
      if (p.scope !== S_NONE) t.rows.append(FRESH_KEY, p.atomic ? s : done, done + p.retention); // the group's only record: no later write merges with it
      t.simpleLatency.countKey(binKey(done - s));
      t.actions++;
    }
  }
}
