/** Simulating for a command: its seed, its threads, a progress bar, and what a report says of --precision. */
import { availableParallelism } from 'node:os';
import { runScenario, type RunOutcome, type RunRequest } from '../../exec/runner.js';
import type { PrecisionTarget } from '../../results/precision.js';
import type { Io } from '../../io/streams.js';
import { threadsUsed, type Threads } from '../options.js';
import { progressBar, type ProgressFn } from '../progress.js';
import { isCoupled } from '../../model/capacity.js';
import type { WrittenScenario } from '../../model/types.js';
import type { PrecisionInfo } from '../../report/types.js';
import { DEFAULT_SEED } from '../../scenario/seed.js';
import type { Given } from '../settings/given.js';

/** The seed of a run: --seed, else the file's, else DEFAULT_SEED. */
export function runSeed(given: string | undefined, fromFile: string | undefined): string {
  return given ?? fromFile ?? DEFAULT_SEED;
}

/**
 * Threads when --threads is not given: every core, but no more than one per 2 million of the
 * actions the command simulates (all its runs: the workers are started once per process and
 * kept). Starting and warming up a worker costs 0.1 to 0.2 s, which a smaller share does not
 * pay back (measured on 2 cores, cold processes: 2 M actions took 0.42 s on 1 thread and
 * 0.44 s on 2; 4 M took 0.82 s and 0.65 s). Results are the same for any thread count.
 */
export function defaultThreads(actions: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.floor(actions / 2_000_000)));
}

/**
 * How much a run of `actions` actions weighs in `defaultThreads`. A coupled run's action
 * (docs/model.md, "Capacity") costs the coupled engine some 10 times a chunk's action when the
 * workers keep up and far more in a storm (measured on 2 cores: the chunk engine 0.16 µs an
 * action; 200,000 actions with 1000 workers 1.3 µs; capacity-storm.yaml 44 µs), and a
 * command's coupled runs go side by side on the threads (exec/side-by-side.ts).
 */
export function simulationWork(scenario: WrittenScenario, actions: number): number {
  return isCoupled(scenario) ? COUPLED_ACTION_WORK * actions : actions;
}

const COUPLED_ACTION_WORK = 10;

/**
 * `--threads`, taken now (its error raised, or the warning said when it asks for more than the
 * cores: see `threadsUsed`); the count for a command of `actions` actions once they are known,
 * which without --threads is `defaultThreads(actions)`.
 */
export function threadSetting(threads: Given<Threads> | undefined, io: Io): (actions: number) => number {
  const used = threads === undefined ? undefined : threadsUsed(threads.value, io);
  return (actions) => used ?? defaultThreads(actions);
}

/** Simulates one scenario, with a progress bar labelled `label` (on a terminal's standard error only). */
export async function simulate(io: Io, label: string, req: RunRequest, signal: AbortSignal | undefined): Promise<RunOutcome> {
  const bar = progressBar(io.stderr, label);
  try {
    return await runScenario({ ...req, onProgress: bar.update, ...(signal ? { signal } : {}) });
  } finally {
    bar.stop();
  }
}

/**
 * One progress bar for runs that go side by side (exec/side-by-side.ts): `of(k)` is run k's
 * progress, and the bar shows the actions of all of them, out of those of the runs started.
 */
export function progressOfMany(io: Io, label: string): { of: (k: number) => ProgressFn; stop: () => void } {
  const bar = progressBar(io.stderr, label);
  const done = new Map<number, number>();
  const totals = new Map<number, number>();
  const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    of: (k) => (d, total) => {
      done.set(k, d);
      totals.set(k, total);
      bar.update(sum(done), sum(totals));
    },
    stop: bar.stop,
  };
}

/** What a report says of a run toward `target`: the target, and whether the run reached it. */
export function precisionInfo(target: PrecisionTarget, outcome: RunOutcome): PrecisionInfo {
  return { metric: target.metric, half_width: target.halfWidth, max_actions: target.maxActions, reached: outcome.precisionReached === true };
}
