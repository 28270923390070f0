/**
 * How a run is cut into chunks, and where each chunk sits in time.
 *
 * Arrivals are one Poisson process. Chunk k holds n_k arrivals; the time it spans is the sum
 * of n_k exponential gaps, a Gamma(n_k) variate, drawn for all chunks in order from one
 * stream of its own. Within the chunk, the gaps are drawn from the chunk's stream and scaled
 * to sum to that span (normalised spacings are independent of their sum), so the process is
 * exactly Poisson, and any shard can place its chunks in time without simulating the others.
 */
import { gamma } from '../random/gamma.js';
import { streamRng } from '../random/rng.js';

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
}

/** Shard `index` (1-based) of `count` takes items [from, to) of `items`: contiguous, as even as can be. */
export function shardRange(items: number, shard: { index: number; count: number }): [number, number] {
  return [Math.floor(((shard.index - 1) * items) / shard.count), Math.floor((shard.index * items) / shard.count)];
}

export function chunkCount(actions: number): number {
  return Math.ceil(actions / CHUNK_ACTIONS);
}

/** Chunks [from, to) of a run of `actions` primary actions at `ratePerS`, made as they are needed. */
export function* chunkPlans(seed: string, actions: number, ratePerS: number, from = 0, to = chunkCount(actions)): Generator<ChunkPlan> {
  const rng = streamRng(seed, 'spans');
  const meanGap = 1000 / ratePerS;
  let offset = 0;
  for (let k = 0; k < to; k++) {
    const n = Math.min(CHUNK_ACTIONS, actions - k * CHUNK_ACTIONS);
    const span = gamma(rng, n) * meanGap;
    if (k >= from) yield { index: k, actions: n, offset, span };
    offset += span;
  }
}

/** The same as a list (for small runs and tests). */
export function planChunks(seed: string, actions: number, ratePerS: number, from = 0, to = chunkCount(actions)): ChunkPlan[] {
  return [...chunkPlans(seed, actions, ratePerS, from, to)];
}
