/**
 * Runs a scenario's chunks on this thread or on worker threads and sums them in chunk
 * order. Which thread simulated a chunk never changes its numbers (each chunk has its own
 * stream), and sums are integer counts, so any thread count gives the same bytes.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { ChunkSimulator, detachedOutput, type ChunkOutput } from '../model/engine.js';
import { Interrupted } from './interrupted.js';
import { RunState } from '../model/metrics.js';
import { CHUNK_ACTIONS, chunkCount, chunkPlans, shardRange, type ChunkPlan } from '../model/plan.js';
import { precisionReached, type PrecisionTarget } from '../model/precision.js';
import { chunkRng } from '../model/rng.js';
import { gridCellsFor, gridStepFor } from '../model/simulate.js';
import type { Scenario } from '../model/types.js';

/**
 * Young-generation size of a worker's heap (MB). A worker's live data is a few MB; V8's
 * default young generation is larger than it needs and made most of the resident size of
 * a two-thread run of 10^9 actions (209 MB measured with the default).
 */
const YOUNG_MB = 8;

/** Finished-but-unsummed chunks allowed per worker: bounds memory if one worker lags. */
const AHEAD = 8;

export interface RunRequest {
  scenario: Scenario;
  seed: string;
  /** Threads that simulate: this one and `threads - 1` workers. */
  threads: number;
  /** Run only shard `index` (1-based) of `count`: a contiguous range of chunks. */
  shard?: { index: number; count: number };
  /** Keep simulating until the target is reached, up to `maxActions` primary actions. */
  precision?: PrecisionTarget;
  /** Called after each chunk is summed, with primary actions done and the most there can be. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface RunOutcome {
  state: RunState;
  /** The grid step used, for merging shards. */
  gridStep: number;
  /** With a precision target: whether it was reached before the action limit. */
  precisionReached?: boolean;
}

export async function runScenario(req: RunRequest): Promise<RunOutcome> {
  const { scenario, seed } = req;
  const total = req.precision?.maxActions ?? scenario.actions;
  const chunks = chunkCount(total);
  const [from, to] = req.shard
    ? shardRange(chunks, req.shard)
    : [0, chunks];
  // Plans are made as chunks are sent, so a run of any length needs no list of them.
  const plans = chunkPlans(seed, total, scenario.load.rate_per_s, from, to);
  const gridStep = gridStepFor(scenario, total);
  const state = new RunState(gridStep, gridCellsFor(scenario, total, gridStep));
  const most = Math.min(to * CHUNK_ACTIONS, total) - Math.min(from * CHUNK_ACTIONS, total);

  let reached = false;
  /** Sums one chunk; returns true to stop. */
  const take = (out: ChunkOutput, plan: ChunkPlan): boolean => {
    state.addChunk(out);
    req.onProgress?.(state.primaries, most);
    if (req.precision && precisionReached(state, req.precision)) reached = true;
    return reached;
  };

  const threads = Math.max(1, Math.min(req.threads, to - from));
  if (threads === 1) await runHere(req, plans, gridStep, take);
  else await runOnWorkers(req, plans, gridStep, threads, take);
  return { state, gridStep, ...(req.precision ? { precisionReached: reached } : {}) };
}

async function runHere(req: RunRequest, plans: Iterable<ChunkPlan>, gridStep: number, take: (o: ChunkOutput, p: ChunkPlan) => boolean): Promise<void> {
  const sim = new ChunkSimulator(req.scenario, gridStep);
  for (const plan of plans) {
    if (req.signal?.aborted) throw new Interrupted();
    if (take(sim.run(chunkRng(req.seed, plan.index), plan), plan)) return;
    await yieldToEventLoop(); // lets Ctrl-C and progress through between chunks
  }
}

/**
 * This thread and `threads - 1` workers simulate chunks, handed out in chunk order, and
 * their outputs are summed in chunk order. This thread simulates too: a worker costs about
 * 0.2 s to start and warm up (loading the engine, then chunks run unoptimised), and
 * summing a chunk is a small part of simulating one, so a run on 2 threads starts one
 * worker, not two that compete with this thread for 2 cores.
 */
async function runOnWorkers(req: RunRequest, plans: Iterator<ChunkPlan>, gridStep: number, threads: number,
  take: (o: ChunkOutput, p: ChunkPlan) => boolean): Promise<void> {
  const workerUrl = new URL('./worker.js', import.meta.url);
  const workers = Array.from({ length: threads - 1 }, () =>
    new Worker(workerUrl, { workerData: { scenario: req.scenario, seed: req.seed, gridStep }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } }));
  const sim = new ChunkSimulator(req.scenario, gridStep);
  const done = new Map<number, ChunkOutput>(); // finished, waiting for their turn
  const sent: ChunkPlan[] = []; // handed out and not yet summed, in chunk order
  const busy = workers.map(() => 0); // chunks sent to each worker and not yet back
  let exhausted = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined; // set while this thread waits for a worker's message
  const nextPlan = (): ChunkPlan | undefined => {
    if (exhausted || sent.length >= AHEAD * threads) return undefined;
    const next = plans.next();
    if (next.done) { exhausted = true; return undefined; }
    sent.push(next.value);
    return next.value;
  };
  /** Keeps every worker two chunks deep (one running, one queued) so none waits for this thread. */
  const feed = () => {
    for (let w = 0; w < workers.length; w++) {
      while ((busy[w] as number) < 2) {
        const plan = nextPlan();
        if (!plan) return;
        (workers[w] as Worker).postMessage(plan);
        busy[w]!++;
      }
    }
  };
  /** Sums the finished chunks whose turn it is; returns true to stop. */
  const drain = (): boolean => {
    while (sent.length > 0) {
      const plan = sent[0] as ChunkPlan;
      const ready = done.get(plan.index);
      if (!ready) return false;
      done.delete(plan.index);
      sent.shift();
      if (take(ready, plan)) return true;
    }
    return false;
  };
  workers.forEach((worker, w) => {
    worker.on('message', (out: ChunkOutput) => {
      busy[w]!--;
      done.set(out.index, out);
      wake?.();
    });
    worker.on('error', (e) => { failure ??= e; wake?.(); });
  });
  const onAbort = () => wake?.();
  req.signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      if (failure) throw failure;
      if (req.signal?.aborted) throw new Interrupted();
      if (drain()) return;
      if (exhausted && sent.length === 0) return;
      feed();
      const plan = nextPlan();
      if (plan) {
        const out = sim.run(chunkRng(req.seed, plan.index), plan);
        // Summed at once when its turn has come; otherwise kept as a copy (the views are reused by the next run).
        if (sent[0] === plan) {
          sent.shift();
          if (take(out, plan)) return;
        } else {
          done.set(plan.index, detachedOutput(out));
        }
        await yieldToEventLoop(); // workers' messages, Ctrl-C and progress come through between chunks
      } else {
        await new Promise<void>((resolve) => { wake = resolve; });
        wake = undefined;
      }
    }
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
