/** A worker thread: simulates the chunks it is sent, one message each, and returns their sums. */
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkSimulator } from '../model/engine.js';
import type { ChunkPlan } from '../model/plan.js';
import { chunkRng } from '../model/rng.js';
import type { Scenario } from '../model/types.js';

const { scenario, seed, gridStep } = workerData as { scenario: Scenario; seed: string; gridStep: number };
const sim = new ChunkSimulator(scenario, gridStep);

parentPort?.on('message', (plan: ChunkPlan) => {
  const view = sim.run(chunkRng(seed, plan.index), plan);
  // The arrays are views of the simulator's buffers: send copies, handing the cells' over.
  const out = { ...view, sum: view.sum.slice(), sumSq: view.sumSq.slice(), cells: view.cells.slice() };
  parentPort?.postMessage(out, [out.cells.buffer as ArrayBuffer]);
});
