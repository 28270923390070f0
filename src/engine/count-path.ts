/**
 * Keyed simple groups counted rather than visited: the chunk engine's loop for a chunk whose simple
 * groups each leave a latency bin and one key row (simple-law.ts says why they have one law, and
 * docs/model-decisions.md, "Counting simple groups", what of the stream it changes). A layer of the
 * engine's one class (engine-state.ts says why) under the chunk engine's top layer (engine.ts), over
 * the retry path.
 *
 * Every group's arrival and uniform are drawn as before. A simple group whose arrival falls in a grid
 * cell the chunk covers whole takes its bin and its row's two cells, counted from its arrival's, from
 * its uniform by the law's alias table: no latency, no bin key, no division. Every other group is set
 * aside and, once every group's uniform is drawn, goes in the order of arrival where it went (one not
 * simple, with its uniform's verdict, to the retry path or the general model, drawing the rest of its
 * story from the chunk's stream from there on; a simple one in a cell at the chunk's edge visited as
 * before). So the loop calls nothing, and a counted chunk's numbers are the visited chunk's in law,
 * not draw for draw.
 *
 * Stories. A tracer (trace.ts) needs each group's times. A counted group's are drawn, once every
 * uniform is, from a stream of the chunk's own (`Rng.split`, which leaves the chunk's stream as it
 * was): its place in its cell and its latency, drawn again until they give its bin and cells (at most
 * MAX_TRIES), and the group is told through the general model with them, into totals of its own, so
 * that hooks hear it as they heard every simple group and the chunk's counts are a run's. Series
 * alone (series-tally.ts) need less: a counted group's arrival and attempt are counted at its arrival,
 * as visited, and its execution there too unless the timeout could carry it into the next bucket,
 * where a latency of its category is drawn from that stream.
 */
import { binKey } from './bins.js';
import { ChunkTotals } from './chunk-output.js';
import type { Params } from './compile.js';
import { D_NONE, withinTimeout } from './draws.js';
import { NO_HOOKS } from './hooks.js';
import { kept } from './kept.js';
import { KeyGrid } from './peak.js';
import { RetryPath } from './retry-path.js';
import { simpleLatency, simpleLaw, type SimpleLaw } from './simple-law.js';
import type { Rng } from '../random/rng.js';
import type { SeriesTally } from './series-tally.js';
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
/** Draws of a story's place and latency before the last is taken as it is (a category of almost no chance in its bin's range). */
export const MAX_TRIES = 1000;
const F64 = new Float64Array(1);
const WORDS = new Int32Array(F64.buffer);
const HIGH_WORD = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1 ? 1 : 0;

export class CountPath extends RetryPath {
  /** Groups counted, over this simulator's chunks (tests read it, to know the path ran). */
  countedGroups = 0;
  /** The law of each set of parameters this simulator counted under; null: visit. */
  private readonly laws = new Map<Params, SimpleLaw | null>();
  /** The chunk's counted groups of each category. */
  private tally = new Int32Array(0);
  /** The groups the hot loop set aside (`countGroups`): each one's index, and its uniform or, for a story, -1 - its category. */
  private setAside = new Int32Array(0);
  private setAsideU = new Float64Array(0);
  private asideCount = 0;
  /** The chunk's stream for stories, and the totals they are told into. */
  private stories: Rng | null = null;
  private readonly storyTotals = new ChunkTotals();

  /** The law of a keyed simple group under `p` on a grid of `step` ms, or null: visit them (simple-law.ts). `key` names what it is made of. */
  protected lawOf(p: Params, step: number, key: string): SimpleLaw | null {
    let law = this.laws.get(p);
    if (law === undefined) this.laws.set(p, (law = kept(LAWS, key, () => simpleLaw(p, step))));
    return law;
  }

  /**
   * The chunk's groups [0, n) under `p`, its keyed simple groups counted by `law`; false, with nothing
   * done, where the grid cannot make room for every counted row (past its cap: the chunk is visited).
   */
  protected countChunk(n: number, p: Params, law: SimpleLaw): boolean {
    const grid = this.totals.grid;
    const perMs = 1 / grid.step;
    // Cells the chunk covers whole: from the one after its start's to the one before its end's (addRow's ceil of run time / step).
    const cellA = Math.ceil(this.offset * perMs) + 1;
    const cellB = Math.ceil((this.offset + (this.arrivals[n - 1] as number)) * perMs) - 1;
    if (cellB >= cellA && !grid.makeRoom(cellA, cellB + law.reach)) return false;
    if (this.tally.length < law.size) this.tally = new Int32Array(law.size);
    if (this.setAside.length < n) {
      this.setAside = new Int32Array(n);
      this.setAsideU = new Float64Array(n);
    }
    const storied = this.hooks !== NO_HOOKS || this.series !== null;
    if (storied) this.beginStories(grid.step);
    this.asideCount = 0;
    const counted = this.countGroups(n, p, law, cellA, cellB, storied);
    this.settleSetAside(p, law);
    this.endCount(law, counted);
    return true;
  }

  /**
   * The hot loop, in a method of its own (as engine.ts's: code that runs once a chunk, compiled with
   * the loop before it ever ran, sent the loop back to the interpreter every chunk), with no call:
   * the general model inlined into it made the optimiser keep each uniform as a heap number, 16
   * bytes an action. Each group's uniform; a keyed simple group in a cell the chunk covers whole
   * counted, every other group set aside for `settleSetAside` (with its category where a story is to
   * be told). Returns the groups it counted.
   */
  private countGroups(n: number, p: Params, law: SimpleLaw, cellA: number, cellB: number, storied: boolean): number {
    const grid = this.totals.grid;
    const perMs = 1 / grid.step;
    const offset = this.offset;
    const arrivals = this.arrivals;
    const rng = this.rng;
    const tally = this.tally;
    const aside = this.setAside, asideU = this.setAsideU;
    const { prob, alias, first, last } = law;
    const simpleP = p.reach[D_NONE] as number;
    const scale = law.size / simpleP;
    const cells = grid.cells;
    const base = grid.cellBase;
    let counted = 0, m = 0;
    for (let a = 0; a < n; a++) {
      const u = rng.next();
      if (u < simpleP) {
        const g = Math.ceil((offset + (arrivals[a] as number)) * perMs);
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
            aside[m] = a;
            asideU[m] = -1 - k; // a counted group's category, for its story
            this.asideCount = ++m;
          }
          continue;
        }
      }
      aside[m] = a;
      asideU[m] = u;
      this.asideCount = ++m; // here, not after the loop: code after it, compiled before it first ran, deoptimised every chunk
    }
    return counted;
  }

  /**
   * The groups the loop set aside, in the order they arrived: one not simple through the retry path
   * or the general model (drawing what it needs from the chunk's stream after every group's uniform),
   * a simple one in an edge cell visited, a counted one's story told.
   */
  private settleSetAside(p: Params, law: SimpleLaw): void {
    const simpleP = p.reach[D_NONE] as number;
    const perMs = 1 / this.totals.grid.step;
    for (let j = 0; j < this.asideCount; j++) {
      const a = this.setAside[j] as number, u = this.setAsideU[j] as number;
      if (u < 0 && this.hooks !== NO_HOOKS) this.tellStory(p, law, a, Math.ceil((this.offset + (this.arrivals[a] as number)) * perMs), -1 - u);
      else if (u < 0) this.countSeries(p, law, a, -1 - u);
      else if (u < simpleP) this.visitSimple(p, a, u);
      else this.simulateScripted(p, a, u);
    }
  }

  /** The chunk's counted groups into its totals: their bins a category at a time, and what each simple group counts. */
  private endCount(law: SimpleLaw, counted: number): void {
    const t = this.totals;
    const tally = this.tally;
    for (let k = 0; k < law.size; k++) {
      const c = tally[k] as number;
      if (c === 0) continue;
      t.simpleLatency.countKeyTimes(law.bin[k] as number, c);
      tally[k] = 0;
    }
    t.handlerRuns += counted;
    t.simpleGroups += counted;
    t.actions += counted;
    this.countedGroups += counted;
    this.stories = null;
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
    t.handlerRuns++;
    t.simpleGroups++;
    t.actions++;
  }

  /** Group `a`, not simple, with the verdict of its uniform `u` under `p`: on the retry path where it stays there, else through the general model. */
  protected simulateScripted(p: Params, a: number, u: number): void {
    if (this.retryPath && this.retried(p, a, u)) return;
    this.scriptedGroup(p, a, u);
  }

  /** Group `a` through the general model, its first decisions settled by its uniform `u` under `p`. */
  private scriptedGroup(p: Params, a: number, u: number): void {
    this.script(p, u);
    this.simulateGroup(a);
    this.endScript();
  }

  private beginStories(step: number): void {
    this.stories = this.rng.split();
    if (this.hooks !== NO_HOOKS) this.storyTotals.reset(this.offset, new KeyGrid(step));
  }

  /**
   * A place in its cell (`story[0]`, x in (0, 1]) and a uniform for its latency (`story[1]`, v) for a
   * group counted in category `k`, from the stories' stream: drawn again until they give its category.
   */
  private drawStory(p: Params, law: SimpleLaw, k: number): void {
    const r = this.stories as Rng;
    const step = this.totals.grid.step;
    const low = law.vLow[k] as number, width = (law.vHigh[k] as number) - low;
    let x = 1, v = low;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      v = low + width * r.next();
      x = 1 - r.next();
      const l = simpleLatency(p, v);
      const first = p.atomic ? 0 : Math.ceil(x + l / step) - 1;
      if (binKey(l) === law.bin[k] && first === law.first[k] && Math.ceil(x + (l + p.retention) / step) - 1 === law.last[k]) break;
    }
    this.story[0] = x;
    this.story[1] = v;
  }
  private readonly story = new Float64Array(2);

  /**
   * Counted group `a` (in cell `g`, of category `k`) told through the general model, into the stories'
   * totals, from its story's place in its cell and latency.
   */
  private tellStory(p: Params, law: SimpleLaw, a: number, g: number, k: number): void {
    this.drawStory(p, law, k);
    const step = this.totals.grid.step;
    const arrival = this.arrivals[a] as number;
    this.arrivals[a] = (g - 1 + (this.story[0] as number)) * step - this.offset;
    const rng = this.rng, totals = this.totals;
    this.rng = this.stories as Rng;
    this.totals = this.storyTotals;
    this.scriptSimple(p, this.story[1] as number);
    this.simulateGroup(a);
    this.endScript();
    this.rng = rng;
    this.totals = totals;
    this.arrivals[a] = arrival;
  }

  /**
   * Counted group `a`'s series counts (no hooks to tell): its arrival and attempt at its arrival, as
   * visited; its execution in the arrival's bucket where the timeout cannot carry it past, else after
   * a latency of its category's drawn from the stories' stream (its category is independent of its
   * arrival, so that latency is, as a visited group's).
   */
  private countSeries(p: Params, law: SimpleLaw, a: number, k: number): void {
    const sr = this.series as SeriesTally;
    const s = this.arrivals[a] as number;
    sr.add(SER.arrivals, s);
    sr.add(SER.attempts, s);
    if (sr.sameBucket(s, s + p.timeout)) {
      sr.add(SER.executions, s);
      return;
    }
    this.drawStory(p, law, k);
    sr.add(SER.executions, s + simpleLatency(p, this.story[1] as number));
  }
}
