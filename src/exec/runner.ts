/**
 * Runs a scenario on this thread and `threads - 1` worker threads, each a lane (lane.ts)
 * that takes chunks from a shared counter and sums them itself; the lanes' sums are added at
 * the end. Which thread simulated a chunk never changes its numbers (each chunk has its own
 * stream), and sums are integer counts, so any thread count gives the same bytes.
 *
 * This thread simulates too: a worker costs about 0.1 to 0.2 s to start and warm up (once per
 * process: pool.ts keeps them), during which this thread takes the chunks, and a run on 2
 * threads uses one worker, not two that compete with this thread for 2 cores. With a precision target this thread also decides,
 * chunk by chunk in order, where the run stops (see `Confirmer`).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import type { RunState, RunStateData } from '../results/metrics.js';
import { CHUNK_ACTIONS, chunkCount, shardRange, type ChunkPlan } from '../engine/plan.js';
import type { PrecisionTarget } from '../results/precision.js';
import { withPrimaries } from '../model/clock.js';
import { runGrid } from '../engine/grid.js';
import type { Scenario } from '../model/types.js';
import { Interrupted } from './interrupted.js';
import { runCoupled } from './coupled-run.js';
import { isCoupled } from '../model/capacity.js';
import { hire, release } from './pool.js';
import { Confirmer } from './confirmer.js';
import { ABORT, CONFIRMED, controlBlock, FINISHED, Lane, type ChunkTotals, type LaneSpec, type WorkerMessage, type WorkerTask } from './lane.js';

/**
 * With a precision target, how many chunks per thread a lane may run past the last one
 * confirmed: each held chunk is a copy of its output with a peak grid of its own (about 330 KB
 * with an hour's retention on 100 ms cells), and this thread confirms between its own chunks, so
 * a few per thread keep the workers from waiting.
 */
const WINDOW_PER_THREAD = 8;

/**
 * How long this thread simulates chunks between turns of the event loop (its workers' messages,
 * Ctrl-C, progress), in ms. A precision run's slice is one chunk: the workers' sums, which let
 * this thread confirm further, come through the event loop, and its window (WINDOW_PER_THREAD)
 * fills within a few chunks.
 */
const SLICE_MS = 10;

/**
 * What a command's options ask of every run it simulates: the part of a request its runs share,
 * taken once from the options and carried to the engine as it is. A coupled run's ask has neither
 * a shard nor a precision target (refused where its request is made: coupled-refusal.ts).
 */
export interface RunAsk {
  /** Run only shard `index` (1-based) of `count`: a contiguous range of chunks. */
  shard?: { index: number; count: number };
  /** Keep simulating until the target is reached, up to `maxActions` primary actions. */
  precision?: PrecisionTarget;
  /** Count the run's series in buckets of this many ms (docs/model.md, "Time"); alerts need one. */
  seriesStep?: number;
}

/** One run's request: the command's ask, with the scenario, its seed and the threads. */
export interface RunRequest extends RunAsk {
  scenario: Scenario;
  seed: string;
  /** Threads that simulate: this one and `threads - 1` workers. */
  threads: number;
  /** Called after each slice of chunks this thread simulates (`runSlice`: about 10 ms), with the primary actions all threads have simulated and the most there can be. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface RunOutcome {
  state: RunState;
  /** The grid step used, for merging shards. */
  gridStep: number;
  /** With a precision target: whether it was reached before the action limit. */
  precisionReached?: boolean;
  /** Chunks each thread simulated: this one first, then the workers in the order they finished (for the benchmark and tests; never part of the results). */
  chunksPerThread: number[];
}

export async function runScenario(req: RunRequest): Promise<RunOutcome> {
  if (isCoupled(req.scenario)) return coupledRun(req);
  const scenario = withPrimaries(req.scenario, req.seed);
  const total = req.precision?.maxActions ?? scenario.actions;
  const chunks = chunkCount(total);
  const [from, to] = req.shard ? shardRange(chunks, req.shard) : [0, chunks];
  const threads = Math.max(1, Math.min(req.threads, to - from));
  const grid = runGrid(scenario, total, req.precision !== undefined);
  const spec: LaneSpec = {
    scenario, seed: req.seed, total, from, to, gridStep: grid.step, gridCells: grid.cells, gridCap: grid.cap,
    seriesStep: req.seriesStep,
    window: req.precision ? WINDOW_PER_THREAD * threads : 0,
    control: controlBlock(from, to, !req.precision),
  };
  const most = Math.min(to * CHUNK_ACTIONS, total) - Math.min(from * CHUNK_ACTIONS, total);
  const confirmer = req.precision ? new Confirmer(spec.control, from, to, req.precision) : undefined;
  const lane = new Lane(spec);
  const crew = new Crew(spec, threads - 1, (totals) => confirmer?.take(totals));
  const onAbort = () => crew.wakeUp();
  req.signal?.addEventListener('abort', onAbort);
  const progress = () => req.onProgress?.(Math.min(most, Atomics.load(spec.control, FINISHED) * CHUNK_ACTIONS), most);
  try {
    crew.start();
    let plan = lane.claim();
    for (;;) {
      crew.check();
      if (req.signal?.aborted) throw new Interrupted();
      confirmer?.confirm();
      const held = lane.settle();
      if (plan && lane.mustWait(plan)) {
        await crew.message(); // chunk sums that let this thread confirm further
        progress();
      } else if (plan) {
        plan = runSlice(lane, plan, confirmer, performance.now() + (confirmer ? 0 : SLICE_MS));
        progress();
        await yieldToEventLoop(); // workers' messages, Ctrl-C and progress come through between slices
      } else if (held > 0 || !crew.allDone()) {
        await crew.message();
        progress();
      } else {
        break;
      }
    }
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
    await crew.stop();
  }
  for (const data of crew.sums) lane.state.addData(data);
  return {
    state: lane.state, gridStep: grid.step, chunksPerThread: [lane.chunks, ...crew.chunks],
    ...(confirmer ? { precisionReached: confirmer.reached } : {}),
  };
}

/**
 * This thread's chunks back to back from `plan` (which may run: the caller confirmed and settled
 * before it), each one's sums taken and the run confirmed and its held chunks settled between them
 * as runScenario's loop does, until `until` (performance.now()), until the next must wait for
 * confirmation, or until none is left; returns the next plan. Here, not in runScenario's loop,
 * which turns once a slice: a turn of an async function's loop a chunk made V8 compile the whole
 * function (30-50 ms, on the core the run shares with the compiler when pinned to one), and a
 * turn of the event loop a chunk cost a setImmediate.
 */
function runSlice(lane: Lane, plan: ChunkPlan, confirmer: Confirmer | undefined, until: number): ChunkPlan | undefined {
  for (;;) {
    const totals = lane.run(plan);
    if (totals) confirmer?.take(totals);
    const next = lane.claim();
    if (!next || performance.now() >= until) return next;
    confirmer?.confirm();
    lane.settle();
    if (lane.mustWait(next)) return next;
    plan = next;
  }
}

/** A coupled run (docs/model.md, "Capacity"): one simulation on this thread, whole (its split refused where its request was made). */
async function coupledRun(req: RunRequest): Promise<RunOutcome> {
  const run = await runCoupled(req);
  return { state: run.state, gridStep: run.gridStep, chunksPerThread: [run.chunks] };
}

/** The worker threads of one run, and what they have sent. */
class Crew {
  /** The sums of the workers that have finished, and how many chunks each simulated (in the order they finished). */
  readonly sums: RunStateData[] = [];
  readonly chunks: number[] = [];
  private readonly workers: Worker[];
  private failure: Error | undefined;
  private wake: (() => void) | undefined; // set while this thread waits for a message

  private readonly listeners = {
    message: (m: WorkerMessage) => {
      if (m.kind === 'chunk') this.onChunk(m.totals);
      else { this.sums.push(m.state); this.chunks.push(m.chunks); }
      this.wakeUp();
    },
    error: (e: Error) => this.fail(e),
    exit: (code: number) => this.fail(new Error(`a worker thread exited with code ${code}`)),
  };

  constructor(private readonly spec: LaneSpec, count: number, private readonly onChunk: (totals: ChunkTotals) => void) {
    this.workers = hire(count);
    for (const worker of this.workers) {
      for (const [event, listener] of Object.entries(this.listeners)) worker.on(event, listener);
    }
  }

  /** Sends each worker the run (inside the caller's try, so that `stop` ends them if this throws). */
  start(): void {
    for (const worker of this.workers) worker.postMessage({ kind: 'lane', spec: this.spec } satisfies WorkerTask);
  }

  /** Throws what went wrong in a worker, if anything did. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  allDone(): boolean {
    return this.sums.length === this.workers.length;
  }

  /** Resolves at the next message from a worker (or failure, or `wakeUp`). */
  message(): Promise<void> {
    return new Promise<void>((resolve) => { this.wake = resolve; }).finally(() => { this.wake = undefined; });
  }

  wakeUp(): void {
    this.wake?.();
  }

  /**
   * After a clean run, gives the workers back to the pool; otherwise (the run failed or was
   * interrupted) tells them to stop and ends them.
   */
  async stop(): Promise<void> {
    for (const worker of this.workers) {
      for (const [event, listener] of Object.entries(this.listeners)) worker.off(event, listener);
    }
    if (this.allDone() && !this.failure) {
      release(this.workers);
      return;
    }
    Atomics.store(this.spec.control, ABORT, 1);
    Atomics.notify(this.spec.control, CONFIRMED); // wakes those waiting on the control block
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.wakeUp();
  }
}
