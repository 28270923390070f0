/**
 * A chunk's arrivals (engine/plan.ts says how chunks sit in time): exponential gaps scaled to
 * the chunk's span, a Poisson process given its n-th arrival, in operational time, then (with a
 * load profile) mapped to the run's time (model/clock.ts). Both engines draw them here.
 */
import type { Clock } from '../model/clock.js';
import { standardExponential } from '../random/exponential.js';
import type { Rng } from '../random/rng.js';
import type { ChunkPlan } from './plan.js';

/** The chunk's arrival times (ms from its start) in `into`, or in a larger array it returns when `into` is too small. */
export function drawArrivals(rng: Rng, plan: ChunkPlan, clock: Clock, into: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const n = plan.actions;
  const span = plan.opSpan;
  const arrivals = into.length < n ? new Float64Array(n) : into;
  let total = 0;
  for (let a = 0; a < n; a++) {
    const g = standardExponential(rng);
    arrivals[a] = g;
    total += g;
  }
  const scale = span / total;
  let t = 0;
  for (let a = 0; a < n - 1; a++) {
    t += (arrivals[a] as number) * scale;
    arrivals[a] = t;
  }
  if (n > 0) arrivals[n - 1] = span;
  if (clock.identity) return arrivals;
  for (let a = 0; a < n - 1; a++) arrivals[a] = clock.real(plan.opOffset + (arrivals[a] as number)) - plan.offset;
  if (n > 0) arrivals[n - 1] = plan.span;
  return arrivals;
}
