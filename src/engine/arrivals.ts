/**
 * A chunk's arrivals (engine/plan.ts says how chunks sit in time): exponential gaps scaled to
 * the chunk's span, a Poisson process given its n-th arrival, in operational time, then (with a
 * load profile) mapped to the run's time (model/clock.ts). Both engines draw them here; a counted
 * chunk (count-path.ts) draws a simple group's place on the span itself, and its other groups'
 * places here (`sortedPlaces`).
 */
import type { Clock } from '../model/clock.js';
import { standardExponential } from '../random/exponential.js';
import type { Rng } from '../random/rng.js';
import type { ChunkPlan } from './plan.js';

/**
 * The chunk's arrival times (ms from its start) in `into`, or in a larger array it returns when
 * `into` is too small. Each loop is a function of its own: the optimiser compiles a long loop
 * while it runs (on-stack replacement), before the code after it has run once, and such code
 * then deoptimised at the end of every chunk (as much time as the rest of the chunk's actions).
 */
export function drawArrivals(rng: Rng, plan: ChunkPlan, clock: Clock, into: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const n = plan.actions;
  const arrivals = into.length < n ? new Float64Array(n) : into;
  if (n > 0) {
    sortedPlaces(rng, arrivals, n - 1, plan.opSpan);
    arrivals[n - 1] = plan.opSpan;
  }
  if (clock.identity) return arrivals;
  toRunTime(arrivals, n, clock, plan);
  if (n > 0) arrivals[n - 1] = plan.span;
  return arrivals;
}

/**
 * `m` uniform places on [0, span], in increasing order, into `into` (at least m + 1 long): the
 * order statistics, as m + 1 exponential gaps scaled to sum to the span (count-path.ts: the groups
 * of a counted chunk that are not simple, whose places are independent of their verdicts).
 */
export function sortedPlaces(rng: Rng, into: Float64Array, m: number, span: number): void {
  const total = drawGaps(rng, into, m + 1);
  addUp(into, m + 1, span / total);
}

/** Arrival times in operational time become the run's (less the chunk's offset), with a load profile. */
function toRunTime(arrivals: Float64Array, n: number, clock: Clock, plan: ChunkPlan): void {
  for (let a = 0; a < n - 1; a++) arrivals[a] = clock.real(plan.opOffset + (arrivals[a] as number)) - plan.offset;
}

/** n exponential gaps into `arrivals`; returns their sum. */
function drawGaps(rng: Rng, arrivals: Float64Array, n: number): number {
  let total = 0;
  for (let a = 0; a < n; a++) {
    const g = standardExponential(rng);
    arrivals[a] = g;
    total += g;
  }
  return total;
}

/** The gaps in `arrivals`, scaled by `scale`, become arrival times (the last is set apart). */
function addUp(arrivals: Float64Array, n: number, scale: number): void {
  let t = 0;
  for (let a = 0; a < n - 1; a++) {
    t += (arrivals[a] as number) * scale;
    arrivals[a] = t;
  }
}
