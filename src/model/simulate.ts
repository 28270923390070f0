/** One run of a scenario: chunks of primary actions, each with its own seeded stream, summed in order. */
import { ChunkSimulator } from './engine.js';
import { Totals, type Metrics } from './metrics.js';
import { chunkRng } from './rng.js';
import type { Scenario } from './types.js';

/** Primary actions per chunk. Part of the results' identity: changing it changes the numbers. */
export const CHUNK_ACTIONS = 16_384;

export interface RunResult {
  scenario: Scenario;
  seed: string;
  metrics: Metrics;
}

/** Simulates `scenario.actions` primary actions from `seed`. Same inputs, same numbers. */
export function simulate(scenario: Scenario, seed: string): RunResult {
  const sim = new ChunkSimulator(scenario);
  const totals = new Totals(scenario);
  const chunks = Math.ceil(scenario.actions / CHUNK_ACTIONS);
  for (let k = 0; k < chunks; k++) {
    const n = Math.min(CHUNK_ACTIONS, scenario.actions - k * CHUNK_ACTIONS);
    totals.add(sim.run(chunkRng(seed, k), n), n);
  }
  return { scenario, seed, metrics: totals.finish() };
}
