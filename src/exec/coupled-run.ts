/** A coupled run (exec/coupled.ts) on the command line: it yields between chunks for progress and signals. */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { seriesStepOf } from '../results/alerts.js';
import type { RunState } from '../results/metrics.js';
import { driving } from '../engine/coupled/drive.js';
import { withTriggerNote } from '../engine/coupled/in-flight.js';
import { prepareCoupled } from './coupled.js';
import { Interrupted } from './interrupted.js';
import type { RunRequest } from './runner.js';

/** What a whole coupled run reads of its request. */
export type CoupledRequest = Pick<RunRequest, 'scenario' | 'seed' | 'seriesStep' | 'onProgress' | 'signal'>;

/** The run, yielding to the event loop between chunks (progress, signals); `seriesStep`: the step its series were counted in, or null. */
export async function runCoupled(req: CoupledRequest): Promise<{ state: RunState; gridStep: number; seriesStep: number | null; chunks: number }> {
  const seriesStep = seriesStepOf(req.scenario, req.seriesStep);
  const { scenario, state, sim, plans, gridStep } = prepareCoupled(req.scenario, req.seed, seriesStep);
  let done = 0;
  let chunks = 0;
  if (req.signal?.aborted) throw new Interrupted();
  try {
    for (const plan of driving(sim, req.seed, plans())) {
      if (plan !== null) { // null: a slice of a chunk's events (drive.ts), to hear a signal in
        done += plan.actions;
        chunks++;
        req.onProgress?.(done, scenario.actions);
      }
      await yieldToEventLoop();
      if (req.signal?.aborted) throw new Interrupted();
    }
  } catch (e) {
    throw withTriggerNote(e, scenario.trigger !== null);
  }
  return { state, gridStep, seriesStep, chunks };
}
