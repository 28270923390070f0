/**
 * The coupled engine's drive loop, written once: each chunk plan's arrivals fed from the chunk's
 * own stream (as the chunk engine draws them) and the events simulated up to them, then, with
 * nothing more to feed, every event left drained and the last block emitted (`flush`).
 */
import type { ChunkPlan } from '../plan.js';
import { chunkRng } from '../../random/rng.js';
import type { CoupledSimulator } from './coupled.js';

/** Events a slice simulates before the loop yields (`null`): some 0.1-0.5 s of a storm's events, so a signal is heard within that. */
export const EVENTS_PER_SLICE = 1_000_000;

/**
 * The loop one chunk at a time: yields each plan once its arrivals are simulated, and drains
 * and flushes after the last; yields null between slices of EVENTS_PER_SLICE events within a
 * chunk or the drain, so that a run whose retries multiply (bounded by runaway.ts, yet seconds of
 * work) still lets a caller that yields to the event loop hear a signal. A caller that stops
 * iterating early leaves the run undrained.
 */
export function* driving(sim: CoupledSimulator, seed: string, plans: Iterable<ChunkPlan>): Generator<ChunkPlan | null, void, undefined> {
  for (const plan of plans) {
    sim.feed(plan, chunkRng(seed, plan.index));
    while (!sim.simulate(false, EVENTS_PER_SLICE)) yield null;
    yield plan;
  }
  while (!sim.simulate(true, EVENTS_PER_SLICE)) yield null;
  sim.flush();
}

/** The whole loop at once: `plans` fed in order from `seed`'s chunk streams, then drained and flushed. */
export function drive(sim: CoupledSimulator, seed: string, plans: Iterable<ChunkPlan>): void {
  const steps = driving(sim, seed, plans);
  while (steps.next().done !== true);
}
