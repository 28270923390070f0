/** A coupled run (exec/coupled.ts) on the command line: it yields between chunks for progress and signals. */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Scenario } from '../model/types.js';
import type { RunState } from '../results/metrics.js';
import { driving } from '../engine/coupled/drive.js';
import { prepareCoupled } from './coupled.js';
import { Interrupted } from './interrupted.js';

/** The run, yielding to the event loop between chunks (progress, signals). */
export async function runCoupled(
  written: Scenario, seed: string, seriesStep: number | null,
  onProgress?: (done: number, total: number) => void, signal?: AbortSignal,
): Promise<{ state: RunState; gridStep: number; chunks: number }> {
  const { scenario, state, sim, plans, gridStep } = prepareCoupled(written, seed, seriesStep);
  let done = 0;
  let chunks = 0;
  if (signal?.aborted) throw new Interrupted();
  for (const plan of driving(sim, seed, plans())) {
    done += plan.actions;
    chunks++;
    onProgress?.(done, scenario.actions);
    await yieldToEventLoop();
    if (signal?.aborted) throw new Interrupted();
  }
  return { state, gridStep, chunks };
}
