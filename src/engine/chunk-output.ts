/**
 * What a chunk produces (`ChunkOutput`) and the accumulators that build it as the chunk runs
 * (`ChunkTotals`): per-action counter sums, handler and timeout counts, latency histograms and
 * the key rows for peak_live_keys.
 */
import { LatencyBins, type BinsData } from './bins.js';
import { C, NUM_COUNTERS } from '../model/counters.js';
import { KeyGrid } from './peak.js';
import { LiveRows } from './live-rows.js';
import type { ChunkPlan } from './plan.js';
import type { SeriesTally } from './series-tally.js';
import type { SaturationData } from './coupled/saturation.js';
import type { OfferedUtilisation } from '../model/offered.js';

/**
 * Everything one chunk produced, as plain data; summed by `RunState`. The typed arrays are
 * views of the simulator's buffers, valid until its next `run` (a worker copies them).
 */
export interface ChunkOutput {
  index: number;
  /** Primary actions simulated. */
  primaries: number;
  /** Actions simulated, twins included. */
  actions: number;
  /** Per-action counter sums and sums of squares (see counters.ts). */
  sum: Float64Array;
  sumSq: Float64Array;
  /** Requests the handler ran (not answered from the key store, not lost on the way). */
  handlerRuns: number;
  /** Of those, runs that took longer than `client.timeout`. */
  handlerRunsOverTimeout: number;
  /** Attempts that ended with the client's timer (no reply in time, for any reason). */
  attemptsUnknown: number;
  callLatency: BinsData;
  actionLatency: BinsData;
  /**
   * The grid the chunk's key rows were written to, for peak_live_keys: the run's own, as the chunk
   * ran, or one of the chunk's (`RunState.addChunk` adds it unless it is the run's).
   */
  grid: KeyGrid;
  /** The chunk's series (series-tally.ts): rows of counts from bucket `base` of `step` ms buckets; null when the run counts none. */
  series: { base: number; rows: Int32Array; step: number } | null;
  /** What only a coupled run (engine/coupled/, docs/model.md "Capacity") measures; null in every other. */
  capacity: CapacityOutput | null;
}

/** A coupled run's measures of its workers (docs/model.md, "Capacity"). */
export interface CapacityOutput {
  /** Queue waits `t - s` of every request a worker ran (zero waits included), as latency bins. */
  queueWait: BinsData;
  /**
   * Handler time inside the load, `[0, T)`, in whole microseconds (each handler's rounded):
   * utilisation's numerator, an integer so that sums in any grouping are exact.
   */
  busyUs: number;
  /** T: the load's end (load.duration, else the last primary's arrival), the same in every block of a run. */
  loadMs: number;
  /** Requests a worker ran (the `started` series' total). */
  started: number;
  /** Calls that returned success (the `succeeded` series' total). */
  succeeded: number;
  /** The run's saturation (docs/model.md, "Saturation"), in its last block only: the run is one simulation. */
  saturation?: SaturationOutput;
}

/** A coupled run's saturation readings as the engine measured them, and the offered utilisation of the scenario it ran. */
export interface SaturationOutput extends SaturationData {
  offered: OfferedUtilisation | null;
}

/**
 * A chunk output that stays valid after the simulator's next run: copies of its views. Its `grid`
 * is not copied: the run's own grid (already holding the chunk's rows, and more with each chunk)
 * or one the chunk alone wrote (exec/lane.ts); outputs of one coupled run share the run's grid.
 */
export function detachedOutput(out: ChunkOutput): ChunkOutput {
  return {
    ...out, sum: out.sum.slice(), sumSq: out.sumSq.slice(),
    series: out.series && { ...out.series, rows: out.series.rows.slice() },
    capacity: out.capacity && { ...out.capacity, queueWait: { ...out.capacity.queueWait, counts: out.capacity.queueWait.counts.slice() } },
  };
}

/**
 * One chunk's accumulators, reset per chunk and reused. The engine's modules add to the fields
 * directly: these are the counts of its hot loop, and a method per increment would only hide that.
 */
export class ChunkTotals {
  readonly sum = new Float64Array(NUM_COUNTERS);
  readonly sumSq = new Float64Array(NUM_COUNTERS);
  /** Actions simulated, twins included. */
  actions = 0;
  handlerRuns = 0;
  overTimeout = 0;
  unknownAttempts = 0;
  /** Groups run by the fast path (engine.ts): their counters are added in `output`. */
  simpleGroups = 0;
  /** Attempts and delivery runs of the general model, held to a bound (runaway.ts). */
  work = 0;
  // Latency histograms, counted as the chunk runs. A simple group's call and action have the
  // same latency: its key is counted once, in simpleLatency, and added to both in `output`.
  readonly callLatency = new LatencyBins();
  readonly actionLatency = new LatencyBins();
  readonly simpleLatency = new LatencyBins();
  /** The group's key rows (the chunk engine's; the coupled engine keeps one per group in flight), and the grid they go to as each group ends, for peak_live_keys. */
  readonly rows = new LiveRows();
  grid = new KeyGrid(1);

  /** A new chunk, starting at run time `offset`, its key rows written to `grid`. */
  reset(offset: number, grid: KeyGrid): void {
    this.sum.fill(0);
    this.sumSq.fill(0);
    this.actions = 0;
    this.handlerRuns = 0;
    this.overTimeout = 0;
    this.unknownAttempts = 0;
    this.work = 0;
    this.callLatency.reset();
    this.actionLatency.reset();
    this.simpleLatency.reset();
    this.rows.clear();
    this.grid = grid;
    grid.rowsFrom(offset);
    this.simpleGroups = 0;
  }

  /** Adds one action's value of a counter to the chunk's sums. */
  count(k: number, v: number): void {
    if (v === 0) return;
    this.sum[k] = (this.sum[k] as number) + v;
    this.sumSq[k] = (this.sumSq[k] as number) + v * v;
  }

  /** The chunk's output, once its groups ran: `keyed` whether simple groups wrote a key. */
  output(plan: ChunkPlan, keyed: boolean, series: SeriesTally | null): ChunkOutput {
    // Simple groups' counts (one attempt, one execution, a key unless unkeyed), added at once:
    // sums of integers are exact in any order.
    const simple = this.simpleGroups;
    const keys = keyed ? simple : 0;
    this.sum[C.attempts]! += simple; this.sumSq[C.attempts]! += simple;
    this.sum[C.executions]! += simple; this.sumSq[C.executions]! += simple;
    this.sum[C.keys]! += keys;
    this.sumSq[C.keys]! += keys;
    this.callLatency.addBins(this.simpleLatency);
    this.actionLatency.addBins(this.simpleLatency);
    this.rows.flushTo(this.grid); // empty, as each group's end flushes its own: kept so a row can never go uncounted
    return {
      index: plan.index, primaries: plan.actions, actions: this.actions,
      sum: this.sum, sumSq: this.sumSq,
      handlerRuns: this.handlerRuns, handlerRunsOverTimeout: this.overTimeout, attemptsUnknown: this.unknownAttempts,
      callLatency: this.callLatency.toData(), actionLatency: this.actionLatency.toData(),
      grid: this.grid,
      series: series && { base: series.base, rows: series.rows(), step: series.step },
      capacity: null,
    };
  }
}
