/**
 * A command's runs in order: a sweep's points, `run`'s scenarios. A run of chunks takes every
 * thread (runner.ts); a coupled run (docs/model.md, "Capacity") is one simulation on one thread,
 * so with more than one thread coupled runs go side by side instead, each on a worker of the
 * pool (coupled-worker.ts), up to `threads` at once. Each outcome is handed on in the runs'
 * order, and a run's numbers never depend on the thread that ran it, so the command's output is
 * the same bytes whatever `threads`.
 */
import { isCoupled } from '../model/capacity.js';
import { CoupledOnWorker } from './coupled-worker.js';
import { Interrupted } from './interrupted.js';
import type { RunOutcome, RunRequest } from './runner.js';

/** One of the command's runs: its request, and whatever the command keeps beside it. */
export interface Job { request: RunRequest }

export interface SideBySide<J extends Job> {
  threads: number;
  /** Runs a job here, on every thread (the command's `runScenario`, with its progress bar if it has one). */
  runHere: (job: J) => Promise<RunOutcome>;
  /** Takes each outcome, in the jobs' order. */
  take: (job: J, outcome: RunOutcome) => void;
  signal?: AbortSignal | undefined;
  /** Which run a job is, for the error of one that fails (`runAt`: a sweep's point); none by default. */
  name?: (job: J) => string;
  /** Starts a job apart, calling `settled` when it finishes or fails (a worker of the pool; tests give their own). */
  startApart?: (job: J, settled: () => void) => Apart;
}

/** A run going on apart from this thread. */
export interface Apart {
  readonly outcome: RunOutcome | undefined;
  readonly failure: Error | undefined;
  readonly running: boolean;
  /** Ends the run if it has not finished. */
  stop(): Promise<void>;
}

/** A coupled run on a worker of the pool: its request posted whole, but for its callbacks. */
function onWorker({ request }: Job, settled: () => void): Apart {
  const { onProgress, signal: _, ...posted } = request;
  return new CoupledOnWorker({ kind: 'coupled', request: posted }, settled, onProgress);
}

/**
 * Finished runs held for `take` while an earlier one is still running, per thread: a run's sums
 * (its grid) can be hundreds of KB, so a long point holds back only a few.
 */
const HELD_PER_THREAD = 2;

/**
 * The run an error came from, as the command named it (`SideBySide.name`: "the point
 * service.capacity.workers=30"), for its message (exec/input-failure.ts); undefined for an error of
 * no named run. A property, not words in the message: the message's own words are matched by its start and end.
 */
export function runAt(e: unknown): string | undefined {
  const at = e instanceof Error ? (e as Error & { runAt?: unknown }).runAt : undefined;
  return typeof at === 'string' ? at : undefined;
}

/** `e`, named as the run `at` failed with (`runAt`; the first name holds: an error passed on is not renamed). */
export function namedRun(e: unknown, at: string): unknown {
  if (e instanceof Error && runAt(e) === undefined) Object.assign(e, { runAt: at });
  return e;
}

/** `e`, named as the run `job` failed with, where the command names its runs. */
function named<J extends Job>(e: unknown, job: J, how: SideBySide<J>): unknown {
  return how.name === undefined ? e : namedRun(e, how.name(job));
}

/** Whether a job may go to a worker: a coupled run, whole (a split is refused where its request is made: coupled-refusal.ts). */
function mayGoApart(job: Job): boolean {
  return isCoupled(job.request.scenario) && !job.request.precision && !(job.request.shard && job.request.shard.count > 1);
}

/**
 * Runs the jobs, pulled from `jobs` one ahead of need (a sweep reads each point's scenario when
 * its turn is near). A coupled job goes to a worker when another is running or follows it, so
 * a command of one coupled run runs it here and starts no worker; a job of chunks waits until
 * the workers are done and then has every thread.
 */
export async function runSideBySide<J extends Job>(jobs: Iterable<J>, how: SideBySide<J>): Promise<void> {
  const ahead = new Lookahead(jobs);
  const flight = new Flight<J>(how.startApart ?? onWorker, how.signal);
  try {
    for (;;) {
      flight.check((e, job) => named(e, job, how));
      for (let head = flight.finishedHead(); head; head = flight.finishedHead()) how.take(head.job, head.outcome);
      const job = ahead.peek(0);
      if (job === undefined && flight.size === 0) break;
      const after = ahead.peek(1);
      const apart = job !== undefined && how.threads > 1 && mayGoApart(job) && (flight.size > 0 || (after !== undefined && mayGoApart(after)));
      if (job !== undefined && apart && flight.running < how.threads && flight.size < HELD_PER_THREAD * how.threads) {
        flight.start(ahead.take() as J);
      } else if (job !== undefined && !apart && flight.size === 0) {
        ahead.take();
        let outcome: RunOutcome;
        try {
          outcome = await how.runHere(job);
        } catch (e) {
          throw named(e, job, how);
        }
        how.take(job, outcome);
      } else {
        await flight.settled();
      }
    }
  } finally {
    await flight.stop();
  }
}

/** The jobs, with the next two in view. */
class Lookahead<J> {
  private readonly buffer: J[] = [];
  private readonly source: Iterator<J>;
  constructor(jobs: Iterable<J>) {
    this.source = jobs[Symbol.iterator]();
  }

  peek(k: number): J | undefined {
    while (this.buffer.length <= k) {
      const next = this.source.next();
      if (next.done) return undefined;
      this.buffer.push(next.value);
    }
    return this.buffer[k];
  }

  take(): J | undefined {
    this.peek(0);
    return this.buffer.shift();
  }
}

/** The coupled runs on workers, in the jobs' order, until each is taken. */
class Flight<J extends Job> {
  private readonly runs: { job: J; apart: Apart }[] = [];
  private wake: (() => void) | undefined;
  private readonly onAbort = () => this.wake?.();

  constructor(private readonly launch: (job: J, settled: () => void) => Apart, private readonly signal: AbortSignal | undefined) {
    signal?.addEventListener('abort', this.onAbort);
  }

  get size(): number {
    return this.runs.length;
  }

  get running(): number {
    return this.runs.filter((r) => r.apart.running).length;
  }

  start(job: J): void {
    this.runs.push({ job, apart: this.launch(job, () => this.wake?.()) });
  }

  /** Throws what went wrong on a worker (as `named` names it), or `Interrupted` after the signal. */
  check(named: (e: unknown, job: J) => unknown): void {
    if (this.signal?.aborted) throw new Interrupted();
    const failed = this.runs.find((r) => r.apart.failure);
    if (failed) throw named(failed.apart.failure, failed.job);
  }

  /** The first job and its outcome, taken out, when it has finished. */
  finishedHead(): { job: J; outcome: RunOutcome } | undefined {
    const outcome = this.runs[0]?.apart.outcome;
    if (!outcome) return undefined;
    const { job } = this.runs.shift() as { job: J };
    return { job, outcome };
  }

  /** Resolves when a run finishes or fails, or at the signal. */
  settled(): Promise<void> {
    return new Promise<void>((resolve) => { this.wake = resolve; }).finally(() => { this.wake = undefined; });
  }

  /** Ends the workers whose runs have not finished (after a failure or the signal). */
  async stop(): Promise<void> {
    this.signal?.removeEventListener('abort', this.onAbort);
    await Promise.all(this.runs.map((r) => r.apart.stop()));
    this.runs.length = 0;
  }
}
