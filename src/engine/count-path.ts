/**
 * Keyed simple groups counted rather than visited: the chunk engine's loop for a chunk whose simple
 * groups each leave a latency bin and one key row (simple-law.ts says why they have one law, and
 * docs/model-decisions.md, "Counting simple groups", what of the stream it changes). A layer of the
 * engine's one class (engine-state.ts says why) under the chunk engine's top layer (engine.ts), over
 * the stories' layer (story-path.ts).
 *
 * Places, not gaps. Given the chunk's last arrival at its span (plan.ts), its other arrivals are
 * uniform over the span, in any order (the visited chunk draws them as scaled exponential gaps, in
 * order): so each group draws its uniform, and a simple one then its place (the others' places,
 * independent of their verdicts, are drawn in order after the loop: arrivals.ts `sortedPlaces`).
 * A simple group whose place falls in a grid cell the chunk covers whole takes its bin and its row's two cells, counted from its place's,
 * from its uniform by the law's alias table: no gap, no latency, no bin key, no division. Every
 * other group is kept apart (a simple one with its place; one not simple by its uniform, its place
 * drawn after the loop) and, once every group is drawn, goes in the order of its place
 * (arrival-order.ts for the simple ones and the stories, merged with the others) where it went: one not simple, with its uniform's verdict, to the retry path or
 * the general model, drawing the rest of its story from the chunk's stream from there on; a simple
 * one in a cell at the chunk's edge visited as before. So the loop calls nothing, and a counted
 * chunk's numbers are the visited chunk's in law, not draw for draw.
 */
import { ArrivalOrder } from './arrival-order.js';
import { binKey } from './bins.js';
import type { Params } from './compile.js';
import type { ChunkPlan } from './plan.js';
import { D_NONE, withinTimeout } from './draws.js';
import { NO_HOOKS } from './hooks.js';
import { kept } from './kept.js';
import { StoryPath } from './story-path.js';
import { sortedPlaces } from './arrivals.js';
import { unit, type Rng } from '../random/rng.js';
import { simpleLaw, type SimpleLaw } from './simple-law.js';
import { SER } from '../model/series.js';

/**
 * The first chunk (by index) whose keyed simple groups are counted: a run's first 262,144 actions
 * are visited. Making a law reads the latency over its whole range, some 2-4 ms (13 ms in a fresh
 * process), which counting earns back (some 12 ns a simple group) only over a million actions or
 * so: a shorter run, a sweep's small points and a timeline's first chunk make none.
 */
export const COUNT_FROM_CHUNK = 16;
/** Laws made in this thread, by what they are made of (`lawKey`; kept.ts). */
const LAWS = new Map<string, SimpleLaw | null>();
const BLOCK = 512; // uniforms the counting loop draws at a time (Rng.fillUnits)
const F64 = new Float64Array(1);
const WORDS = new Int32Array(F64.buffer);
const HIGH_WORD = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 1 : 0;

export class CountPath extends StoryPath {
  /** Groups counted, over this simulator's chunks (tests read it, to know the path ran). */
  countedGroups = 0;
  /** The law of each set of parameters this simulator counted under; null: visit. */
  private readonly laws = new Map<Params, SimpleLaw | null>();
  /** The chunk's counted groups of each category. */
  private tally = new Int32Array(0);
  /** The categories of the chunk's tally that counted any (`hitCount` of them), for endCount. */
  private hits = new Int32Array(0);
  private hitCount = 0;
  private asideCount = 0;
  /** The groups not simple, by the loop's order: their uniforms, then their places in increasing order (arrivals.ts `sortedPlaces`). */
  private otherU = new Float64Array(0);
  private otherT = new Float64Array(0);
  private otherCount = 0;
  private readonly arrivalOrder = new ArrivalOrder();
  /** The counting loop's uniforms, a block of them, and the stream's state at the block's start with the uniforms drawn before it (mark[4]). */
  private readonly block = new Float64Array(BLOCK);
  private readonly blockMark = new Int32Array(5);

  /** The law of a keyed simple group under `p` on a grid of `step` ms, or null: visit them (simple-law.ts). `key` names what it is made of. */
  protected lawOf(p: Params, step: number, key: string): SimpleLaw | null {
    let law = this.laws.get(p);
    if (law === undefined) this.laws.set(p, (law = kept(LAWS, key, () => simpleLaw(p, step))));
    return law;
  }

  /**
   * Room in the counting buffers for a chunk of `n` groups under a law of `size` categories. Apart
   * from countChunk: the allocations, made at a process's first counted chunk, had no type feedback
   * (V8 gives a function its feedback vector only once it has run a while), and in countChunk they
   * threw its optimised code out at the next run's first, whose simulator grows its buffers again.
   */
  protected countRoom(n: number, size: number): void {
    if (this.tally.length < size) {
      this.tally = new Int32Array(size);
      this.hits = new Int32Array(size);
    }
    if (this.places.length < n) {
      this.places = new Float64Array(n);
      this.setAsideU = new Float64Array(n);
      this.otherU = new Float64Array(n);
      this.otherT = new Float64Array(n + 1);
    }
    if (this.arrivals.length < n) this.arrivals = new Float64Array(n);
  }

  /**
   * The chunk `plan`'s groups under `p` drawn, its keyed simple groups counted by `law`: returns how
   * many it counted (`finishCount` does the rest), or -1, with nothing drawn, where the grid cannot
   * make room for every counted row (past its cap: the chunk is visited).
   */
  protected countChunk(plan: ChunkPlan, p: Params, law: SimpleLaw): number {
    const n = plan.actions, span = plan.span;
    const grid = this.totals.grid;
    const perMs = 1 / grid.step;
    // Cells the chunk covers whole: from the one after its start's to the one before its last arrival's (addRow's ceil of run time / step).
    const cellA = Math.ceil(this.offset * perMs) + 1;
    const cellB = Math.ceil((this.offset + span) * perMs) - 1;
    if (cellB >= cellA && !grid.makeRoom(cellA, cellB + law.reach)) return -1;
    const storied = this.hooks !== NO_HOOKS || this.series !== null;
    if (storied) this.beginStories(grid.step);
    this.asideCount = 0;
    this.otherCount = 0;
    const simpleP = p.reach[D_NONE] as number;
    const tally = this.tally;
    const counted = n > 0 ? this.countGroups(
      n, span, this.offset, perMs, cellA, cellB, storied, law.prob, law.alias, law.first, law.last, simpleP, law.size / simpleP,
      grid.cells, grid.cellBase, tally, this.places, this.setAsideU, this.otherU, this.rng, this.block, this.blockMark,
    ) : 0;
    // The categories counted, listed for endCount. Here, not there: this loop, with no call in it,
    // makes countChunk hot within a run's first chunks (what makes a function hot is its own
    // bytecode run, and countChunk's is short), and the optimiser then inlines the counting loop
    // into it: some 20% faster than `countGroups` called from countChunk in the interpreter, as it
    // was for a process's first 4 to 6 runs of 4 M actions without this loop. With a call in it,
    // the loop took the inlining budget first (the most frequent call is inlined first).
    const hits = this.hits;
    let h = 0;
    for (let k = 0; k < law.size; k++) if ((tally[k] as number) !== 0) hits[h++] = k;
    this.hitCount = h;
    return counted;
  }

  /**
   * The rest of a chunk `countChunk` counted (`counted` groups of it): its last group, the places of its groups not simple,
   * and the groups it did not count, then its counted groups into its totals. Called after it, not from it: the optimiser inlines a budget of
   * code into a function, the calls after the loop first, and with them in `countChunk` the loop's
   * draws were left calls (each uniform a heap number): 26 M/s against 36 M/s once inlined.
   */
  protected finishCount(plan: ChunkPlan, p: Params, law: SimpleLaw, counted: number): void {
    if (plan.actions > 1) { // the stream back to just after the loop's last draw: a group took one uniform, a simple one two
      this.rng.restore(this.blockMark);
      this.rng.advance(2 * (plan.actions - 1) - this.otherCount - (this.blockMark[4] as number));
    }
    if (plan.actions > 0) this.setAsideLast(plan.span);
    sortedPlaces(this.rng, this.otherT, this.otherCount, plan.span);
    this.settleSetAside(p, law, plan.span);
    this.endCount(law, counted);
  }

  /**
   * The hot loop, in a method of its own, which the optimiser inlines into countChunk once that is
   * hot (the listing loop after it there has run every chunk from the first, so it has its type
   * feedback: code after a loop that had not yet run, compiled with the loop, sent the loop back to
   * the interpreter every chunk), with no call: the general model inlined into it made the optimiser
   * keep each uniform as a heap number, 16 bytes an action. Everything it reads is an argument: its
   * first runs, before the engine collects type feedback, read fields with none, and the first
   * optimised code threw out at its first field read, leaving the loop unoptimised for a run or two.
   * Each group's uniform but the last's (`setAsideLast`), and a simple group's place, read from
   * `block`, drawn BLOCK at a time (`mark`: the stream at the block's start, for finishCount to put
   * it back after the loop's last draw); a keyed simple group in a cell the chunk covers whole counted
   * (`scale`: the law's categories over the chance of a simple group), a simple one in an edge cell
   * set aside with its place (and a counted one with its category where a story is to be told), a
   * group not simple kept by its uniform alone (`otherU`: its place comes after). Returns the groups it counted.
   */
  private countGroups(
    n: number, span: number, offset: number, perMs: number, cellA: number, cellB: number, storied: boolean,
    prob: Float64Array, alias: Int32Array, first: Int32Array, last: Int32Array, simpleP: number, scale: number,
    cells: Int32Array, base: number, tally: Int32Array, places: Float64Array, asideU: Float64Array, otherU: Float64Array, rng: Rng,
    block: Float64Array, mark: Int32Array,
  ): number {
    let counted = 0, m = 0, o = 0;
    let j = BLOCK, drawn = 0; // the block's next uniform; uniforms drawn into blocks
    for (let a = 0; a < n - 1; a++) {
      if (j >= BLOCK - 1) {
        // Fewer than the two a simple group takes: the one left to the front, the rest drawn after it.
        const left = BLOCK - j;
        if (left === 1) block[0] = block[BLOCK - 1] as number;
        rng.save(mark);
        mark[4] = drawn;
        rng.fillUnits(block, left, BLOCK);
        drawn += BLOCK - left;
        j = 0;
      }
      const u = block[j++] as number;
      if (u < simpleP) {
        const t = (block[j++] as number) * span;
        const g = Math.ceil((offset + t) * perMs);
        if (g >= cellA && g <= cellB) {
          // Vose's draw without a branch (which column a uniform takes is a coin toss): the sign of x - i - prob[i].
          const x = u * scale;
          const i = x | 0;
          const other = alias[i] as number;
          F64[0] = x - i - (prob[i] as number);
          const k = other + ((WORDS[HIGH_WORD]! >> 31) & (i - other));
          tally[k]!++;
          const c = g - base;
          cells[c + (first[k] as number)]!++;
          cells[c + (last[k] as number)]!--;
          counted++;
          if (storied) {
            places[m] = t;
            asideU[m] = -1 - k; // a counted group's category, for its story
            this.asideCount = ++m;
          }
          continue;
        }
        places[m] = t;
        asideU[m] = u;
        this.asideCount = ++m; // here, not after the loop: code after it, compiled before it first ran, deoptimised every chunk
        continue;
      }
      otherU[o] = u; // not simple: its place is drawn after the loop, with the others' (`sortedPlaces`)
      this.otherCount = ++o;
    }
    return counted;
  }

  /** The chunk's last group, at its span, set aside (here, not after the loop: code after a loop, compiled before it first ran, deoptimised every chunk). */
  private setAsideLast(span: number): void {
    const m = this.asideCount;
    this.places[m] = span;
    this.setAsideU[m] = unit(this.rng.int32());
    this.asideCount = m + 1;
  }

  /**
   * The groups the loop did not count, in the order of their places (the simple ones set aside and
   * the stories, a story at the place it is told at, merged with the groups not simple, whose places
   * `finishCount` drew in order): one not simple through the retry path or the general model (drawing
   * what it needs from the chunk's stream after every group's uniform and place), a simple one in an
   * edge cell visited, a counted one's story told. The j-th takes arrival j. With series alone, the counted
   * groups' counts are made first, apart (`countSeriesApart`).
   */
  private settleSetAside(p: Params, law: SimpleLaw, span: number): void {
    const simpleP = p.reach[D_NONE] as number;
    let m = this.asideCount;
    if (this.hooks !== NO_HOOKS) this.placeStories(p, law, m);
    else if (this.series !== null) m = this.countSeriesApart(p, law, m);
    const order = this.arrivalOrder.sort(this.places, m, span);
    const others = this.otherCount, otherT = this.otherT, otherU = this.otherU;
    // The two lists merged by place (the groups not simple first at an equal place).
    for (let j = 0, i = 0, o = 0; j < m + others; j++) {
      const e = i < m ? (order[i] as number) : -1;
      const t = e < 0 ? Infinity : (this.places[e] as number);
      if (o < others && (otherT[o] as number) <= t) {
        this.arrivals[j] = otherT[o] as number;
        this.simulateScripted(p, j, otherU[o++] as number);
        continue;
      }
      i++;
      const u = this.setAsideU[e] as number;
      this.arrivals[j] = t;
      if (u < 0) this.tellStory(p, j, this.storyV[e] as number);
      else if (u < simpleP) this.visitSimple(p, j, u);
      else this.simulateScripted(p, j, u); // the last group, at the span
    }
  }

  /** The chunk's counted groups into its totals: their bins a category at a time (those `countChunk` listed), and what each simple group counts. */
  private endCount(law: SimpleLaw, counted: number): void {
    const t = this.totals;
    const tally = this.tally, hits = this.hits;
    for (let j = 0; j < this.hitCount; j++) {
      const k = hits[j] as number;
      t.simpleLatency.countKeyTimes(law.bin[k] as number, tally[k] as number);
      tally[k] = 0;
    }
    this.countSimple(counted);
    this.countedGroups += counted;
    this.endStories();
  }

  /** A simple group in a cell at the chunk's edge, visited as the visiting loop does (engine.ts), or through the general model where hooks listen. */
  private visitSimple(p: Params, a: number, u: number): void {
    if (this.hooks !== NO_HOOKS) return this.scriptedGroup(p, a, u);
    const t = this.totals;
    const s = this.arrivals[a] as number;
    const done = s + withinTimeout(p.cut.below(u / (p.reach[D_NONE] as number)), p);
    const sr = this.series;
    if (sr !== null) {
      sr.add(SER.arrivals, s);
      sr.add(SER.attempts, s);
      sr.add(SER.executions, done);
    }
    t.grid.addRow(p.atomic ? s : done, done + p.retention);
    t.simpleLatency.countKey(binKey(done - s));
    this.countSimple(1);
  }

  /** Group `a`, not simple, with the verdict of its uniform `u` under `p`: on the retry path (its commonest group written straight: reply-path.ts) where it stays there, else through the general model. */
  protected simulateScripted(p: Params, a: number, u: number): void {
    if (this.retryPath && ((this.lostReply(p, u) && this.answeredRetry(p, a, u)) || this.retried(p, a, u))) return;
    this.scriptedGroup(p, a, u);
  }

  /** Group `a` through the general model, its first decisions settled by its uniform `u` under `p`. */
  private scriptedGroup(p: Params, a: number, u: number): void {
    this.script(p, u);
    this.simulateGroup(a);
    this.endScript();
  }
}
