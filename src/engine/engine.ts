/**
 * The simulation of docs/model.md, one chunk of primary actions at a time.
 *
 * Keys never cross business identities, so an action and its twin (a "group") are simulated
 * alone against a tiny private key store. The engine is one class in layers, one per file
 * (engine-state.ts says why): the random decisions (draws.ts), the state, an action's calls
 * (calls.ts), an attempt (attempt.ts), a group (group.ts), its deliveries (delivery.ts), the
 * groups that retry, on a small state of their own (retry-path.ts), into the chunk's totals (chunk-output.ts).
 * Here, the top layer: the chunk's arrivals and the one hot loop, with its fast path.
 */
import { drawArrivals } from './arrivals.js';
import { binKey } from './bins.js';
import type { ChunkOutput } from './chunk-output.js';
import { clockOf, type Clock } from '../model/clock.js';
import { compile, S_NONE, type Params } from './compile.js';
import { D_NONE, withinTimeout } from './draws.js';
import { DueRuns } from './due-runs.js';
import { COUNT_FROM_CHUNK, CountPath } from './count-path.js';
import { retryPathFits } from './retry-path.js';
import { KeyGrid } from './peak.js';
import { MIXED, NO_QUICK_KEYS, QUICK_ENTRIES, QuickKeys, SPAN_MS, UNFILLED } from './quick-keys.js';
import { NO_HOOKS, type EngineHooks } from './hooks.js';
import { Regimes, type FastSpan } from './regimes.js';
import type { ChunkPlan } from './plan.js';
import { SER } from '../model/series.js';
import { uniform } from '../random/uniform.js';
import { SeriesTally } from './series-tally.js';
import { unit, type Rng } from '../random/rng.js';
import type { Scenario } from '../model/types.js';

export { CONFLICT_409, ERR_5XX, FRESH_KEY, FROM_STORE, HANDLER, LOST_REQUEST, MISMATCH_422, NO_KEY, NO_REPLY, OK, SHED_503, STORE_503 } from './attempt.js';
export { ORIGINAL, REPLAN, REPLAY } from './calls.js';
export { detachedOutput, type ChunkOutput } from './chunk-output.js';

/** Simulates chunks of one scenario; reuse one instance for many chunks. */
export class ChunkSimulator extends CountPath {
  /** The run's clock (arrivals are drawn in its operational time). */
  private readonly clock: Clock;
  /** With incident windows, this chunk's spans of time and the parameters a group's first decisions meet in each (Regimes.fastSpans). */
  private spans: FastSpan[] = [];
  /** Whether keyed simple groups are counted (count-path.ts): keyed, in steady time (no incident, no load profile), no trigger, a smooth latency. */
  private readonly counting: boolean;
  /** What the law of its simple groups is made of, to find it made (count-path.ts `lawOf`). */
  private readonly lawKey: string;

  /**
   * `gridStep`: the run's peak grid step in ms (see `gridStepFor`). `fastPath: false` sends
   * every group through the general model; the outputs are the same (tests compare them).
   * `hooks` hear every group's story, told by the general model (a group the fast path would settle
   * goes through it, and a counted one's story is told there: story-path.ts).
   * `seriesStep`: count the run's series in buckets of this many ms (null: none).
   * `count: false` visits keyed simple groups as they were visited before counting (0.2's numbers: the tests compare the fast path with the general model).
   */
  constructor(
    scenario: Scenario, private readonly gridStep: number, private readonly fastPath = true,
    hooks: EngineHooks = NO_HOOKS, seriesStep: number | null = null, count = true,
  ) {
    super(compile(scenario), hooks);
    this.clock = clockOf(scenario);
    if (scenario.incidents.length > 0) this.regimes = new Regimes(scenario, this.base);
    if (seriesStep !== null) this.series = new SeriesTally(seriesStep);
    this.retryPath = retryPathFits(this.base, fastPath && hooks === NO_HOOKS);
    this.counting = count && fastPath && this.base.scope !== S_NONE && this.regimes === null && this.clock.identity && this.base.trigger === null && this.base.cut.smooth;
    // Only where a law may be made (an empirical latency's spec holds up to a million values, and is never smooth).
    this.lawKey = this.counting ? JSON.stringify([scenario.service.latency, scenario.client.timeout, scenario.idempotency.retention, scenario.idempotency.claim, gridStep]) : '';
  }

  /**
   * Simulates one chunk with the chunk's own stream, writing its key rows to `grid` (the run's,
   * or by default one of the chunk's: the output's `grid`).
   */
  run(rng: Rng, plan: ChunkPlan, grid = new KeyGrid(this.gridStep)): ChunkOutput {
    this.rng = rng;
    this.totals.reset(plan.offset, grid);
    this.p = this.base;
    this.offset = plan.offset;
    this.series?.begin(plan.offset);
    if (this.regimes !== null) this.spans = this.regimes.fastSpans(plan.offset);
    if (!this.counted(plan)) {
      this.arrivals = drawArrivals(this.rng, plan, this.clock, this.arrivals);
      this.simulateArrivals(plan.actions);
    }
    return this.totals.output(plan, this.p.scope !== S_NONE, this.series);
  }

  /**
   * The hot loop, in a method of its own: code that runs once per chunk would reach the
   * optimiser without type feedback and throw the loop back to the interpreter each chunk.
   *
   * One uniform per group settles its first decisions (draws.ts, `script`). Most groups are
   * simple: no twin, and the first attempt of the first call is executed and answered in time,
   * with no replay after it (about 96% of the lab's). The loop settles those itself, their
   * latency drawn from the same uniform; the others go through the general model with the
   * uniform's verdict (`simulateGroup`), which gives a simple group the same numbers
   * (test/fast-path.test.ts compares chunks with and without this path, `fastPath`). The simple
   * group is written out here rather than in methods because the optimiser inlines only so
   * much into one function, and a double passed to or returned from a call it does not inline
   * is boxed: an allocation per group.
   *
   * A counted chunk does not come here (`counted`).
   *
   * With incident windows the chunk is cut into spans of time (regimes.ts, `fastSpans`): in
   * each, one uniform settles a group's first decisions with the parameters in force there, and
   * where a group could meet two sets of them (the timeout before a change) every group goes
   * through the general model, drawing each decision.
   */
  private simulateArrivals(n: number): void {
    if (this.base.trigger !== null) {
      for (let g = 0; g < n; g++) this.simulateDelivered(g);
      return;
    }
    if (this.regimes === null) return this.countSimple(this.simulateSpan(0, n, this.base));
    const arrivals = this.arrivals;
    let a = 0;
    for (const span of this.spans) {
      let b = a;
      while (b < n && (arrivals[b] as number) < span.to) b++;
      if (span.fast !== null) this.countSimple(this.simulateSpan(a, b, span.fast));
      else for (let g = a; g < b; g++) this.simulateGroup(g);
      a = b;
      if (a >= n) return;
    }
  }

  /**
   * From chunk COUNT_FROM_CHUNK of a keyed scope in steady time, the chunk counted (count-path.ts,
   * `countChunk`, which draws its groups' places itself), where the law of what its simple groups
   * leave is made; false: its arrivals are to be drawn and its groups visited.
   */
  private counted(plan: ChunkPlan): boolean {
    if (!this.counting || plan.index < COUNT_FROM_CHUNK) return false;
    const law = this.lawOf(this.base, this.gridStep, this.lawKey);
    if (law === null) return false;
    this.countRoom(plan.actions, law.size);
    const counted = this.countChunk(plan, this.base, law);
    if (counted < 0) return false;
    this.finishCount(plan, this.base, law, counted);
    return true;
  }

  /** A triggered group's runs (actor 2k + action for delivery k: delivery.ts) by their next send; only those in it are read. */
  private readonly due = new DueRuns();

  /** Simulates the chunk's group `g` (arrival `arrivals[g]`) with its deliveries (docs/model.md, "Inbound delivery"), from its start. */
  private simulateDelivered(g: number): void {
    const arrival = this.arrivals[g] as number;
    this.beginGroup(arrival, 0);
    this.due.clear();
    const twin = this.twinDrawn();
    this.beginAction(0, arrival);
    if (twin) this.beginAction(1, arrival + uniform(this.rng, this.p.twinMin, this.p.twinMax));
    else this.deadline[1] = Infinity;
    this.runEvents();
    this.finishDelivered(0);
    if (twin) this.finishDelivered(1);
    this.rows.flushTo(this.totals.grid);
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

  /**
   * Groups [from, to) of the chunk, in order, each settled by one uniform under the parameters
   * `p`: the simple ones here, the others through the general model with their uniform's verdict.
   * In order: the action timeline numbers groups as they are simulated. Returns the simple groups,
   * for the caller to count (`countSimple`): nothing after the loop, as in count-path.ts
   * `countGroups` (the loop is compiled while it runs, before code after it ever ran, and that code
   * sent the loop back to the interpreter).
   */
  private simulateSpan(from: number, to: number, p: Params): number {
    const t = this.totals;
    const rng = this.rng;
    const simpleP = p.reach[D_NONE] as number;
    const cut = p.cut;
    const keyed = p.scope !== S_NONE;
    const inline = this.fastPath && this.hooks === NO_HOOKS;
    const sr = this.series;
    const bins = t.simpleLatency;
    const grid = t.grid;
    // A simple group's bin from its uniform's range where the range has one (quick-keys.ts): then
    // an unkeyed group with no series to count needs nothing else of its latency.
    const quick = this.quickKeysOf(p);
    const keys = to > from && (this.arrivals[to - 1] as number) + p.timeout < SPAN_MS ? quick.keys : NO_QUICK_KEYS;
    const latencyRead = keyed || sr !== null;
    let simple = 0; // returned for the caller to count (`countSimple`): a local stays in a register
    for (let a = from; a < to; a++) {
      const u = unit(rng.int32());
      const settles = u < simpleP && inline;
      const range = (u * QUICK_ENTRIES) | 0;
      const known = keys[range] as number;
      if (known > MIXED && settles && !latencyRead) {
        simple++;
        bins.countKey(known);
        continue;
      }
      // NaN: not simple (belowQuick(1) is NaN: the general model's, with its uniform's verdict), or
      // a simple group whose latency the table does not draw quickly (a cell not built yet, or
      // drawn by the exact quantile), drawn here by `below` as the general model would draw it
      // (draws.ts). No NaN constant here: it made every value boxed.
      let drawn = cut.belowQuick(settles ? u / simpleP : 1);
      if (drawn !== drawn) {
        if (!settles) {
          this.simulateScripted(p, a, u);
          continue;
        }
        this.drawExactly(cut, u / simpleP);
        drawn = this.exact[0] as number;
      }
      if (known === UNFILLED) quick.fill(range);
      // One attempt, one execution, one key record unless unkeyed; the call's latency is the
      // action's, drawn as draws.ts's drawHandlerDelay draws a simple group's.
      const s = this.arrivals[a] as number;
      const done = s + withinTimeout(drawn, p);
      if (sr !== null) {
        sr.add(SER.arrivals, s);
        sr.add(SER.attempts, s);
        sr.add(SER.executions, done);
      }
      simple++;
      if (keyed) grid.addRow(p.atomic ? s : done, done + p.retention); // the group's only record: no later write merges with it
      bins.countKey(known > MIXED ? known : binKey(done - s));
    }
    return simple;
  }

  /**
   * A simple group's latency that the table does not draw quickly, from `v` (its uniform given that
   * it is simple), into `exact[0]`: in an array, since a double returned from a call the loop does
   * not inline is a heap number, and the loop's latency would become one for every group. About
   * 0.4% of the lab's simple groups, which went through the general model (some 250 ns each).
   */
  private drawExactly(cut: Params['cut'], v: number): void {
    this.exact[0] = cut.below(v);
  }
  private readonly exact = new Float64Array(1);

  /** The ranges' keys under `p` (the run's parameters, or a window's), made at its first span. */
  private readonly quickKeys = new Map<Params, QuickKeys>();
  private quickKeysOf(p: Params): QuickKeys {
    let keys = this.quickKeys.get(p);
    if (keys === undefined) this.quickKeys.set(p, (keys = new QuickKeys(p)));
    return keys;
  }

}
