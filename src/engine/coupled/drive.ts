/**
 * The coupled engine's drive loop, written once: each chunk plan's arrivals fed from the chunk's
 * own stream (as the chunk engine draws them) and the events simulated up to them, then, with
 * nothing more to feed, every event left drained and the last block emitted (`flush`).
 */
import type { ChunkPlan } from '../plan.js';
import { chunkRng } from '../../random/rng.js';
import type { CoupledSimulator } from './coupled.js';

/**
 * The loop one chunk at a time: yields each plan once its arrivals are simulated, and drains
 * and flushes after the last. A caller that yields to the event loop between chunks (progress,
 * signals) iterates it; a caller that stops iterating early leaves the run undrained.
 */
export function* driving(sim: CoupledSimulator, seed: string, plans: Iterable<ChunkPlan>): Generator<ChunkPlan, void, undefined> {
  for (const plan of plans) {
    sim.feed(plan, chunkRng(seed, plan.index));
    sim.simulate(false);
    yield plan;
  }
  sim.simulate(true);
  sim.flush();
}

/** The whole loop at once: `plans` fed in order from `seed`'s chunk streams, then drained and flushed. */
export function drive(sim: CoupledSimulator, seed: string, plans: Iterable<ChunkPlan>): void {
  const steps = driving(sim, seed, plans);
  while (steps.next().done !== true);
}
