/**
 * A command's runs side by side (exec/side-by-side.ts), without threads: coupled runs start
 * "apart" as stand-ins that finish when the test says, in an order fast-check chooses. Whatever
 * the order, every outcome is taken in the jobs' order, no more than `threads` runs go at once,
 * a run of chunks never overlaps one apart, and one coupled run alone runs here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interrupted } from '../src/exec/interrupted.js';
import type { RunOutcome } from '../src/exec/runner.js';
import { runAt, runSideBySide, type Apart, type Job } from '../src/exec/side-by-side.js';
import { inputFailure } from '../src/exec/input-failure.js';
import { IN_FLIGHT_OVERFLOW } from '../src/engine/coupled/in-flight.js';
import { DEFAULT_SCENARIO, type Scenario } from '../src/model/types.js';
import type { RunState } from '../src/results/metrics.js';

const COUPLED = { ...DEFAULT_SCENARIO, service: { ...DEFAULT_SCENARIO.service, capacity: { workers: 4, queue: null, order: 'fifo', drop_expired: false, retry_after: null } } } as Scenario;

type TestJob = Job & { k: number };
const job = (k: number, coupled: boolean): TestJob => ({ k, request: { scenario: coupled ? COUPLED : DEFAULT_SCENARIO, seed: '1', threads: 1 } });
/** An outcome that says which job it is for (a run's numbers are not the point here). */
const outcomeOf = (k: number): RunOutcome => ({ state: {} as RunState, gridStep: k, chunksPerThread: [] });

/** A stand-in for a run on a worker: it finishes, or fails, when the test says. */
class StandIn implements Apart {
  outcome: RunOutcome | undefined;
  failure: Error | undefined;
  stopped = false;
  constructor(readonly k: number, private readonly settled: () => void) {}
  get running(): boolean {
    return this.outcome === undefined && this.failure === undefined;
  }
  finish(): void {
    this.outcome = outcomeOf(this.k);
    this.settled();
  }
  fail(e: Error): void {
    this.failure = e;
    this.settled();
  }
  stop(): Promise<void> {
    this.stopped = true;
    return Promise.resolve();
  }
}

/** What happened: the jobs taken in order, where each ran, and the most runs apart at once. */
interface Log { taken: number[]; here: number[]; apart: StandIn[]; mostRunning: number; hereWhileApart: boolean }

/**
 * Runs `kinds` (true: coupled) on `threads`; whenever the scheduler waits, `pick` chooses which
 * running stand-in finishes next (an index into those running).
 */
async function drive(kinds: boolean[], threads: number, pick: (running: number) => number, signal?: AbortSignal): Promise<Log> {
  const log: Log = { taken: [], here: [], apart: [], mostRunning: 0, hereWhileApart: false };
  const running = () => log.apart.filter((a) => a.running);
  const done = runSideBySide(kinds.map((c, k) => job(k, c)), {
    threads, signal,
    runHere: async (j) => {
      log.hereWhileApart ||= running().length > 0;
      log.here.push(j.k);
      return outcomeOf(j.k);
    },
    take: (j, outcome) => {
      expect(outcome.gridStep).toBe(j.k);
      log.taken.push(j.k);
    },
    startApart: (j, settled) => {
      const a = new StandIn(j.k, settled);
      log.apart.push(a);
      log.mostRunning = Math.max(log.mostRunning, running().length);
      return a;
    },
  });
  let finished = false;
  void done.finally(() => { finished = true; }).catch(() => undefined);
  while (!finished) {
    await new Promise((r) => setImmediate(r));
    const now = running();
    if (now.length > 0) now[pick(now.length) % now.length]?.finish();
  }
  await done;
  return log;
}

describe('runs side by side', () => {
  it('every outcome is taken in the jobs\' order, at most `threads` runs apart at once, and a run of chunks alone', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.boolean(), { maxLength: 12 }), fc.integer({ min: 1, max: 4 }), fc.infiniteStream(fc.nat()),
      async (kinds, threads, picks) => {
        const log = await drive(kinds, threads, (n) => picks.next().value % n);
        expect(log.taken).toEqual(kinds.map((_, k) => k));
        expect(log.mostRunning).toBeLessThanOrEqual(threads);
        expect(log.hereWhileApart).toBe(false);
        // Every coupled job goes apart on more than one thread, unless it stands alone between runs of chunks.
        if (threads === 1) expect(log.apart).toEqual([]);
        for (const a of log.apart) expect(kinds[a.k]).toBe(true);
      },
    ), { numRuns: 300 });
  });

  it('coupled runs go apart up to `threads` at once; one coupled run alone runs here', async () => {
    const four = await drive([true, true, true, true], 3, () => 0);
    expect(four.apart.map((a) => a.k)).toEqual([0, 1, 2, 3]);
    expect(four.mostRunning).toBe(3);
    expect(four.here).toEqual([]);
    const one = await drive([true], 3, () => 0);
    expect(one.here).toEqual([0]);
    expect(one.apart).toEqual([]);
    const mixed = await drive([false, true, false, true, true], 2, () => 0);
    expect(mixed.here).toEqual([0, 1, 2]);
    expect(mixed.apart.map((a) => a.k)).toEqual([3, 4]);
  });

  it('a run that fails apart fails the whole, and the runs still going are stopped', async () => {
    const apart: StandIn[] = [];
    const boom = new Error('a worker thread exited with code 1');
    const done = runSideBySide([job(0, true), job(1, true), job(2, true)], {
      threads: 3, runHere: async () => outcomeOf(-1), take: () => undefined,
      startApart: (j, settled) => { const a = new StandIn(j.k, settled); apart.push(a); return a; },
    });
    await new Promise((r) => setImmediate(r));
    apart[1]?.fail(boom);
    await expect(done).rejects.toBe(boom);
    expect(apart.map((a) => a.stopped)).toEqual([true, true, true]);
  });

  it('a failed run is named as the command names it (a sweep\'s point), apart or here, and the message names it first', async () => {
    const apart: StandIn[] = [];
    const boom = new Error(`${IN_FLIGHT_OVERFLOW} more than 65,536 actions in flight at once at minute 31 of the run`);
    const done = runSideBySide([job(0, true), job(1, true)], {
      threads: 2, runHere: async () => outcomeOf(-1), take: () => undefined, name: (j) => `the sweep's point workers=${j.k}`,
      startApart: (j, settled) => { const a = new StandIn(j.k, settled); apart.push(a); return a; },
    });
    await new Promise((r) => setImmediate(r));
    apart[1]?.fail(boom);
    await expect(done).rejects.toBe(boom);
    expect(runAt(boom)).toBe("the sweep's point workers=1");
    expect(inputFailure(boom)).toMatch(/^at the sweep's point workers=1, the coupled run holds too much work in flight: more than 65,536 actions/);
    const here = new Error(`${IN_FLIGHT_OVERFLOW} more than 1 actions in flight at once at minute 0 of the run`);
    await expect(runSideBySide([job(0, false)], { threads: 1, runHere: () => Promise.reject(here), take: () => undefined, name: () => 'the run x' })).rejects.toBe(here);
    expect(runAt(here)).toBe('the run x');
    expect(runAt(new Error('unnamed'))).toBeUndefined();
  });

  it('the signal interrupts: Interrupted, and every run still going is stopped', async () => {
    const apart: StandIn[] = [];
    const stop = new AbortController();
    const done = runSideBySide([job(0, true), job(1, true)], {
      threads: 2, signal: stop.signal, runHere: async () => outcomeOf(-1), take: () => undefined,
      startApart: (j, settled) => { const a = new StandIn(j.k, settled); apart.push(a); return a; },
    });
    await new Promise((r) => setImmediate(r));
    stop.abort();
    await expect(done).rejects.toBeInstanceOf(Interrupted);
    expect(apart.map((a) => a.stopped)).toEqual([true, true]);
  });
});
