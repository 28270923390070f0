/**
 * A whole coupled run on a worker thread (docs/model.md, "Capacity"). Such a run is one
 * simulation that cannot be split across threads, but a command's several runs (a sweep's
 * points, `run`'s scenarios) can go side by side, one a worker (side-by-side.ts). The worker
 * posts its progress chunk by chunk and its sums once, as a lane does; the sums are integer
 * counts, so the run reads the same as on this thread.
 */
import type { Worker } from 'node:worker_threads';
import { RunState, type RunStateData } from '../results/metrics.js';
import { runCoupled, type CoupledRequest } from './coupled-run.js';
import { hire, release } from './pool.js';
import type { RunOutcome } from './runner.js';

/** What a worker is sent for a coupled run: its request, less what cannot be posted. */
export interface CoupledTask { kind: 'coupled'; request: Omit<CoupledRequest, 'onProgress' | 'signal'> }

/** What the worker sends: its progress, then its sums. */
export type CoupledMessage =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'finished'; state: RunStateData; gridStep: number; seriesStep: number | null; chunks: number };

/** In the worker: the run, its progress and then its sums posted. */
export async function runCoupledTask(task: CoupledTask, post: (m: CoupledMessage) => void): Promise<void> {
  const run = await runCoupled({ ...task.request, onProgress: (done, total) => post({ kind: 'progress', done, total }) });
  post({ kind: 'finished', state: run.state.toData(), gridStep: run.gridStep, seriesStep: run.seriesStep, chunks: run.chunks });
}

/** The outcome of a run from the sums its worker sent. */
function outcomeOf(m: Extract<CoupledMessage, { kind: 'finished' }>): RunOutcome {
  const state = new RunState(m.gridStep, 0, m.seriesStep);
  state.addData(m.state);
  return { state, gridStep: m.gridStep, chunksPerThread: [m.chunks] };
}

/**
 * On this thread: one coupled run on a worker of the pool. `settled` is called once, when the
 * run has finished (`outcome` set) or failed (`failure` set); `stop` ends a worker whose run
 * has not finished, and gives the pool back one whose run has.
 */
export class CoupledOnWorker {
  outcome: RunOutcome | undefined;
  failure: Error | undefined;
  private readonly worker: Worker;

  private readonly listeners = {
    message: (m: CoupledMessage) => {
      if (m.kind === 'progress') this.onProgress?.(m.done, m.total);
      else this.settle(() => { this.outcome = outcomeOf(m); });
    },
    error: (e: Error) => this.settle(() => { this.failure = e; }),
    exit: (code: number) => this.settle(() => { this.failure = new Error(`a worker thread exited with code ${code}`); }),
  };

  constructor(task: CoupledTask, private readonly settled: () => void, private readonly onProgress?: (done: number, total: number) => void) {
    [this.worker] = hire(1) as [Worker];
    for (const [event, listener] of Object.entries(this.listeners)) this.worker.on(event, listener);
    this.worker.postMessage(task);
  }

  get running(): boolean {
    return this.outcome === undefined && this.failure === undefined;
  }

  async stop(): Promise<void> {
    if (this.outcome) return; // the pool has it back already
    this.unlisten();
    await this.worker.terminate();
  }

  private settle(record: () => void): void {
    if (!this.running) return;
    record();
    if (this.outcome) {
      this.unlisten();
      release([this.worker]);
    }
    this.settled();
  }

  private unlisten(): void {
    for (const [event, listener] of Object.entries(this.listeners)) this.worker.off(event, listener);
  }
}
