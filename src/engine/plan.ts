/**
 * How a run is cut into chunks, and where each chunk sits in time.
 *
 * Arrivals are one Poisson process. Chunk k holds n_k arrivals; the time it spans is the sum
 * of n_k exponential gaps, a Gamma(n_k) variate, drawn for all chunks in order from one
 * stream of its own. Within the chunk, the gaps are drawn from the chunk's stream and scaled
 * to sum to that span (normalised spacings are independent of their sum), so the process is
 * exactly Poisson, and any shard can place its chunks in time without simulating the others.
 */
import { standardExponential } from '../random/exponential.js';
import { gamma } from '../random/gamma.js';
import { streamRng } from '../random/rng.js';
import { arrivalTime, Clock, withPrimaries, type ArrivalTime } from '../model/clock.js';
import type { WrittenScenario } from '../model/types.js';

/** Primary actions per chunk. Part of the results' identity: changing it changes the numbers. */
export const CHUNK_ACTIONS = 16_384;

export interface ChunkPlan {
  index: number;
  /** Primary actions in the chunk. */
  actions: number;
  /** Start time of the chunk in the run (ms). */
  offset: number;
  /** Time from the chunk's start to its last arrival (ms). */
  span: number;
  /**
   * The same two in operational time (clock.ts), in which the arrivals are drawn; the engine
   * maps them to the run's time. Equal to offset and span without a load profile.
   */
  opOffset: number;
  opSpan: number;
}

/** No profile, no duration: the chunks of `actions` arrivals at the base rate. */
const STEADY: ArrivalTime = { clock: new Clock(1, []), window: null };

/** Shard `index` (1-based) of `count` takes items [from, to) of `items`: contiguous, as even as can be. */
export function shardRange(items: number, shard: { index: number; count: number }): [number, number] {
  return [Math.floor(((shard.index - 1) * items) / shard.count), Math.floor((shard.index * items) / shard.count)];
}

export function chunkCount(actions: number): number {
  return Math.ceil(actions / CHUNK_ACTIONS);
}

/**
 * Chunks [from, to) of a run of `actions` primary actions at `ratePerS`, made as they are
 * needed. With `time.window` (load.duration) the `actions` arrivals are those of a Poisson
 * process in that window given their number: uniform order statistics, which are the partial
 * sums of actions + 1 exponential gaps scaled to the window. So the spans are drawn as without
 * a window, with one more gap after the last, and all are scaled to fill it.
 */
export function* chunkPlans(seed: string, actions: number, ratePerS: number, from = 0, to = chunkCount(actions), time = STEADY): Generator<ChunkPlan> {
  const meanGap = time.window === null ? 1000 / ratePerS : time.window / spanTotal(seed, actions);
  const rng = streamRng(seed, 'spans');
  let offset = 0;
  for (let k = 0; k < to; k++) {
    const n = Math.min(CHUNK_ACTIONS, actions - k * CHUNK_ACTIONS);
    const span = gamma(rng, n) * meanGap;
    if (k >= from) {
      // Without a profile the run's time is the operational time, to the bit.
      const start = time.clock.identity ? offset : time.clock.real(offset);
      const realSpan = time.clock.identity ? span : time.clock.real(offset + span) - start;
      yield { index: k, actions: n, offset: start, span: realSpan, opOffset: offset, opSpan: span };
    }
    offset += span;
  }
}

/** The sum of every chunk's Gamma span and one more exponential gap: `chunkPlans`'s first pass with a window. */
function spanTotal(seed: string, actions: number): number {
  const rng = streamRng(seed, 'spans');
  let total = 0;
  for (let k = 0; k < chunkCount(actions); k++) total += gamma(rng, Math.min(CHUNK_ACTIONS, actions - k * CHUNK_ACTIONS));
  return total + standardExponential(rng);
}

/** The same as a list (for small runs and tests). */
export function planChunks(seed: string, actions: number, ratePerS: number, from = 0, to = chunkCount(actions), time = STEADY): ChunkPlan[] {
  return [...chunkPlans(seed, actions, ratePerS, from, to, time)];
}

/**
 * Chunks [from, to) of the run of `scenario` from `seed`: its primaries (`withPrimaries`: the
 * drawn count with load.duration) placed in time by its clock. What the run plans with, and
 * every tracer of a run's chunk (the report's timeline, the lab's) with it.
 */
export function runPlans(scenario: WrittenScenario, seed: string, from = 0, to?: number): Generator<ChunkPlan> {
  const bound = withPrimaries(scenario, seed);
  return chunkPlans(seed, bound.actions, bound.load.rate_per_s, from, to, arrivalTime(bound));
}
