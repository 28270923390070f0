/** A worker thread: simulates the chunks it is sent, one message each, and returns their sums. */
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkSimulator, detachedOutput } from '../model/engine.js';
import type { ChunkPlan } from '../model/plan.js';
import { chunkRng } from '../model/rng.js';
import type { Scenario } from '../model/types.js';

const { scenario, seed, gridStep } = workerData as { scenario: Scenario; seed: string; gridStep: number };
const sim = new ChunkSimulator(scenario, gridStep);

parentPort?.on('message', (plan: ChunkPlan) => {
  // The arrays are views of the simulator's buffers: send copies, handing the cells' over.
  const out = detachedOutput(sim.run(chunkRng(seed, plan.index), plan));
  parentPort?.postMessage(out, [out.cells.buffer as ArrayBuffer]);
});
