/**
 * The service's saturation, exactly (docs/model.md, "Saturation"): the server tells this
 * tracker each instant the service becomes saturated (the handlers running reach the workers in
 * force) or free again, and it keeps the episodes' readings as they close, in time order: the
 * saturated time inside the load `[0, T)`, for each incident the end of the episode holding its
 * `to`, and every episode of which at least a minute lies outside every incident's
 * `[from, to + 30m)`. A free instant of zero length (a worker freed and taken again at one time)
 * does not end an episode: an episode that ends is held open until time moves on. Given a
 * SaturationTally (the lab's chart over time; none by default), each episode's time is also
 * counted in buckets as it closes: one null test per episode, nothing per event.
 */
import type { Scenario } from '../../model/types.js';

/** What a run's saturation gives (results/saturation.ts reads it). */
export interface SaturationData {
  /** Saturated time inside `[0, T)`, ms. */
  saturatedMs: number;
  /** Per incident, in the scenario's order: the end of the episode holding its `to` minus `to` (0 when not saturated at `to`), ms. */
  clearedMs: number[];
  /** Per incident: whether that episode ended after T (it outlived the load). */
  pastLoad: boolean[];
  /** The episodes with at least OVERLOAD_MS outside every incident's `[from, to + INCIDENT_REACH_MS)`, `[start, end]` in ms. */
  overload: [number, number][];
}

/** How long after an incident's `to` its episodes still belong to it (fixed: replays and re-plans arrive after a window). */
export const INCIDENT_REACH_MS = 30 * 60_000;
/** How much of an episode must lie outside every incident for it to be an overload. */
export const OVERLOAD_MS = 60_000;

/** Saturated time per bucket of `step` ms from 0 (the lab's chart): every episode's, the drain after the load's end included. */
export class SaturationTally {
  /** Saturated ms in bucket `b` = `[b·step, (b+1)·step)`. */
  readonly ms: number[] = [];
  constructor(readonly step: number) {
    if (!(step > 0)) throw new Error(`a saturation tally needs a step above 0 ms, not ${step}`);
  }

  /** The episode `[a, b)`, split at the buckets' edges. */
  add(a: number, b: number): void {
    const step = this.step;
    for (let k = Math.floor(a / step), from = a; from < b; k++) {
      const to = Math.min(b, (k + 1) * step);
      while (this.ms.length <= k) this.ms.push(0);
      this.ms[k] = (this.ms[k] as number) + to - from;
      from = to;
    }
  }
}

export class SaturationTracker {
  /** Where each episode's time is also counted by bucket (the lab's chart); none by default. */
  tally: SaturationTally | null = null;
  /** Whether the service is saturated now, and since when (the open episode's start). */
  saturated = false;
  private start = 0;
  /** The last episode that ended, held until time moves past its end (NaN: none). */
  private heldStart = NaN;
  private heldEnd = NaN;
  private saturatedMs = 0;
  /** The incidents' `to` in ascending order, each with its index, and the next not yet placed. */
  private readonly tos: { to: number; index: number }[];
  private nextTo = 0;
  private readonly clearedMs: number[];
  private readonly pastLoad: boolean[];
  /** The union of every incident's reach `[from, to + 30m)`, as sorted disjoint intervals. */
  private readonly reach: [number, number][];
  private readonly overload: [number, number][] = [];

  constructor(scenario: Scenario, private readonly loadEnd: number) {
    const windows = scenario.incidents;
    this.tos = windows.map((w, index) => ({ to: w.to, index })).sort((a, b) => a.to - b.to || a.index - b.index);
    this.clearedMs = windows.map(() => 0);
    this.pastLoad = windows.map(() => false);
    this.reach = union(windows.map((w) => [w.from, w.to + INCIDENT_REACH_MS] as [number, number]));
  }

  /** No worker is free from `x` on. */
  begin(x: number): void {
    this.saturated = true;
    if (this.heldEnd === x) { // freed and taken again at one instant: the episode goes on
      this.start = this.heldStart;
      this.heldEnd = NaN;
      return;
    }
    if (!Number.isNaN(this.heldEnd)) this.close(this.heldStart, this.heldEnd);
    this.heldEnd = NaN;
    this.start = x;
  }

  /** A worker is free from `x` on. */
  end(x: number): void {
    this.saturated = false;
    this.heldStart = this.start;
    this.heldEnd = x;
  }

  /** The run is over at `x` (nothing is left to run): the readings. */
  finish(x: number): SaturationData {
    if (this.saturated) this.end(x);
    if (!Number.isNaN(this.heldEnd)) this.close(this.heldStart, this.heldEnd);
    this.heldEnd = NaN;
    return { saturatedMs: this.saturatedMs, clearedMs: this.clearedMs, pastLoad: this.pastLoad, overload: this.overload };
  }

  /** The episode `[a, b)` is over: its time inside the load, the incidents' `to` it holds, and whether it is an overload. */
  private close(a: number, b: number): void {
    const T = this.loadEnd;
    if (a < T) this.saturatedMs += Math.min(b, T) - a;
    if (this.tally !== null) this.tally.add(a, b);
    const tos = this.tos;
    while (this.nextTo < tos.length && (tos[this.nextTo] as { to: number }).to < b) {
      const { to, index } = tos[this.nextTo++] as { to: number; index: number };
      if (to < a) continue; // not saturated at that `to`: 0
      this.clearedMs[index] = b - to;
      this.pastLoad[index] = b > T;
    }
    if (b - a >= OVERLOAD_MS && b - a - covered(this.reach, a, b) >= OVERLOAD_MS) this.overload.push([a, b]);
  }
}

/** Sorted, merged intervals. */
function union(xs: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of [...xs].sort((p, q) => p[0] - q[0])) {
    const last = out[out.length - 1];
    if (last !== undefined && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** How much of `[a, b)` the disjoint intervals cover. */
function covered(reach: readonly [number, number][], a: number, b: number): number {
  let sum = 0;
  for (const [x, y] of reach) sum += Math.max(0, Math.min(b, y) - Math.max(a, x));
  return sum;
}
