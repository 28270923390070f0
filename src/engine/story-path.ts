/**
 * The stories of counted groups (count-path.ts): a layer of the chunk engine's one class
 * (engine-state.ts says why) between the counting layer and the retry path's (reply-path.ts), and the groups the
 * counting loop sets aside, which the stories are among.
 *
 * A tracer (trace.ts) needs each group's times. A counted group's are drawn, once every
 * group is, from a stream of the chunk's own (`Rng.split`, which leaves the chunk's stream as it
 * was): a place in its cell and its latency, drawn again until they give its bin and cells (at most
 * MAX_TRIES), and the group is told there, in the order of places, through the general model, into
 * totals of its own: hooks hear it as they heard every simple group, and the chunk's counts are a
 * run's. Series alone (series-tally.ts) need less: a counted group's arrival and attempt are counted
 * at its place, and its execution there too unless the timeout could carry it into the next
 * bucket, where a latency of its category is drawn from that stream.
 */
import { binKey } from './bins.js';
import { ChunkTotals } from './chunk-output.js';
import type { Params } from './compile.js';
import { NO_HOOKS } from './hooks.js';
import { KeyGrid } from './peak.js';
import { ReplyPath } from './reply-path.js';
import { simpleLatency, type SimpleLaw } from './simple-law.js';
import type { Rng } from '../random/rng.js';
import type { SeriesTally } from './series-tally.js';
import { SER } from '../model/series.js';

/** Draws of a story's place and latency before the last is taken as it is (a category of almost no chance in its bin's range). */
export const MAX_TRIES = 1000;

export class StoryPath extends ReplyPath {
  /** The groups the counting loop set aside (count-path.ts `countGroups`): each one's place, and its uniform or, for a story, -1 - its category. */
  protected places = new Float64Array(0);
  protected setAsideU = new Float64Array(0);
  /** The chunk's stream for stories, the totals they are told into, and each one's latency uniform (`placeStories`). */
  private stories: Rng | null = null;
  private readonly storyTotals = new ChunkTotals();
  protected storyV = new Float64Array(0);

  protected beginStories(step: number): void {
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
   * Each counted group's story, drawn in the order the loop set them aside: its place in its cell
   * becomes its place (where it will be told, and ordered), its latency's uniform kept in `storyV`.
   */
  protected placeStories(p: Params, law: SimpleLaw, m: number): void {
    if (this.storyV.length < m) this.storyV = new Float64Array(this.places.length);
    const step = this.totals.grid.step, perMs = 1 / step;
    for (let e = 0; e < m; e++) {
      const u = this.setAsideU[e] as number;
      if (u >= 0) continue;
      const g = Math.ceil((this.offset + (this.places[e] as number)) * perMs); // as the loop found its cell
      this.drawStory(p, law, -1 - u);
      this.places[e] = (g - 1 + (this.story[0] as number)) * step - this.offset;
      this.storyV[e] = this.story[1] as number;
    }
  }

  /** Counted group `j` (at its story's place) told through the general model, into the stories' totals, its latency from `v`. */
  protected tellStory(p: Params, j: number, v: number): void {
    const rng = this.rng, totals = this.totals;
    this.rng = this.stories as Rng;
    this.totals = this.storyTotals;
    this.scriptSimple(p, v);
    this.simulateGroup(j);
    this.endScript();
    this.rng = rng;
    this.totals = totals;
  }

  /**
   * With series and no hooks, the counted groups' series counts (`countSeries`), in the order the
   * loop set them aside: they need no order, so only the other groups are left to be put in the
   * order of their places (sorting every group a chunk cost an hour's counted run with an alert
   * 15%). Those stay in `places` and `setAsideU` from 0, in the loop's order; returns how many.
   */
  protected countSeriesApart(p: Params, law: SimpleLaw, m: number): number {
    let kept = 0;
    for (let e = 0; e < m; e++) {
      const u = this.setAsideU[e] as number;
      if (u < 0) {
        this.countSeries(p, law, this.places[e] as number, -1 - u);
        continue;
      }
      this.places[kept] = this.places[e] as number;
      this.setAsideU[kept++] = u;
    }
    return kept;
  }

  /**
   * A counted group's series counts (no hooks to tell), at its place `s`: its arrival and attempt
   * there, as a visited group's at its arrival; its execution in that bucket where the timeout
   * cannot carry it past, else after a latency of category `k` drawn from the stories' stream (its
   * category is independent of its place, so that latency is, as a visited group's).
   */
  private countSeries(p: Params, law: SimpleLaw, s: number, k: number): void {
    const sr = this.series as SeriesTally;
    sr.add(SER.arrivals, s);
    sr.add(SER.attempts, s);
    if (sr.sameBucket(s, s + p.timeout)) {
      sr.add(SER.executions, s);
      return;
    }
    this.drawStory(p, law, k);
    sr.add(SER.executions, s + simpleLatency(p, this.story[1] as number));
  }

  protected endStories(): void {
    this.stories = null;
  }
}
