/** A worker thread: simulates the chunks it is sent, one message each, and returns their sums. */
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkSimulator } from '../model/engine.js';
import type { ChunkPlan } from '../model/plan.js';
import { chunkRng } from '../model/rng.js';
import type { Scenario } from '../model/types.js';

const { scenario, seed } = workerData as { scenario: Scenario; seed: string };
const sim = new ChunkSimulator(scenario);

parentPort?.on('message', (plan: ChunkPlan) => {
  const out = sim.run(chunkRng(seed, plan.index), plan);
  const buffers = [out.sum, out.sumSq, out.recordStart, out.recordEnd].map((a) => a.buffer as ArrayBuffer);
  parentPort?.postMessage(out, buffers);
});
