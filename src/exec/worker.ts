/** A worker thread: simulates the chunks it is sent, one message each, and returns their sums. */
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkSimulator } from '../model/engine.js';
import type { ChunkPlan } from '../model/plan.js';
import { chunkRng } from '../model/rng.js';
import type { Scenario } from '../model/types.js';

const { scenario, seed } = workerData as { scenario: Scenario; seed: string };
const sim = new ChunkSimulator(scenario);

parentPort?.on('message', (plan: ChunkPlan) => {
  const view = sim.run(chunkRng(seed, plan.index), plan);
  // The output's arrays are views of the simulator's buffers: send copies, and hand them over.
  const out = { ...view, sum: view.sum.slice(), sumSq: view.sumSq.slice(), recordStart: view.recordStart.slice(), recordEnd: view.recordEnd.slice() };
  parentPort?.postMessage(out, [out.sum, out.sumSq, out.recordStart, out.recordEnd].map((a) => a.buffer));
});
