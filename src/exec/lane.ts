/**
 * One thread's share of a run. Every thread of a run (this one and each worker) is a lane:
 * it takes the next chunk index from a counter all lanes share, simulates that chunk and
 * sums it into its own `RunState`. Lanes meet once, at the end, when their states are added
 * together; sums are integer counts, so which lane ran which chunk never changes the result.
 *
 * With `--precision` the run stops at the first chunk, in chunk order, after which the
 * target is met; that is decided by the first thread from each chunk's counter sums (see
 * confirmer.ts). A lane may run ahead of that decision by a bounded window: chunks not yet
 * confirmed are held apart and added once confirmed, or dropped if the run stopped before them.
 */
import { ChunkSimulator, detachedOutput, type ChunkOutput } from '../engine/engine.js';
import { seriesStepOf } from '../results/alerts.js';
import { RunState, type RunStateData } from '../results/metrics.js';
import { arrivalTime } from '../model/clock.js';
import { chunkPlans, type ChunkPlan } from '../engine/plan.js';
import { chunkRng } from '../random/rng.js';
import type { Scenario } from '../model/types.js';
import type { CoupledTask } from './coupled-worker.js';

/** Slots of the control block, an Int32Array over a SharedArrayBuffer that all lanes of a run see. */
export const NEXT = 0; // the next chunk index to hand out
export const CONFIRMED = 1; // chunks below it are in the result
export const STOP = 2; // chunks at or above it are not
export const ABORT = 3; // 1: stop at once, the run's results are thrown away
export const FINISHED = 4; // chunks simulated so far, for progress
const SLOTS = 5;

/** What every lane of a run needs to know; sent to each worker of the run (`WorkerTask`). */
export interface LaneSpec {
  scenario: Scenario;
  seed: string;
  /** Primary actions of the whole run (the most a precision run may take). */
  total: number;
  /** Chunks [from, to) are this run's (all of them, or one shard's). */
  from: number;
  to: number;
  gridStep: number;
  gridCells: number;
  /** Where a row's end is clipped (grid.ts runGrid; Infinity for a precision run). */
  gridCap: number;
  /** The series' step asked for (ms), if any: `seriesStepOf` gives the step the run counts in. */
  seriesStep: number | undefined;
  /** Unconfirmed chunks a lane may run ahead (0: every chunk is confirmed from the start). */
  window: number;
  control: Int32Array;
}

/** A control block for chunks [from, to); `confirmedFromStart`: no precision target, every chunk counts. */
export function controlBlock(from: number, to: number, confirmedFromStart: boolean): Int32Array {
  const control = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
  control[NEXT] = from;
  control[CONFIRMED] = confirmedFromStart ? to : from;
  control[STOP] = to;
  return control;
}

/** A chunk's counter sums: all the first thread needs to decide where a precision run stops. */
export interface ChunkTotals {
  index: number;
  actions: number;
  sum: Float64Array;
  sumSq: Float64Array;
}

/** What a worker is sent: one lane of a run, or a whole coupled run (coupled-worker.ts). */
export type WorkerTask = { kind: 'lane'; spec: LaneSpec } | CoupledTask;

/** What a worker sends: each chunk's counter sums (precision runs only), then its sums once. */
export type WorkerMessage =
  | { kind: 'chunk'; totals: ChunkTotals }
  | { kind: 'done'; state: RunStateData; chunks: number };

export class Lane {
  readonly state: RunState;
  /** Chunks this lane simulated (whether or not they are in the result). */
  chunks = 0;
  private readonly sim: ChunkSimulator;
  private readonly plans: Iterator<ChunkPlan>;
  /** Simulated, not yet confirmed (copies: the simulator reuses its buffers). */
  private held: ChunkOutput[] = [];

  constructor(private readonly spec: LaneSpec) {
    const seriesStep = seriesStepOf(spec.scenario, spec.seriesStep);
    this.state = new RunState(spec.gridStep, spec.gridCells, seriesStep, spec.gridCap);
    this.sim = new ChunkSimulator(spec.scenario, spec.gridStep, true, undefined, seriesStep);
    // Each lane walks the plans itself (one Gamma draw a chunk), so no list of them is shared.
    this.plans = chunkPlans(spec.seed, spec.total, spec.scenario.load.rate_per_s, spec.from, spec.to, arrivalTime(spec.scenario));
  }

  /** Takes the next chunk of the run, or undefined when none is left. */
  claim(): ChunkPlan | undefined {
    const index = Atomics.add(this.spec.control, NEXT, 1);
    if (index >= Atomics.load(this.spec.control, STOP)) return undefined;
    // Indices come to each lane in increasing order, so its plans only move forward.
    for (;;) {
      const next = this.plans.next();
      if (next.done) return undefined;
      if (next.value.index === index) return next.value;
    }
  }

  /** True while `plan` is further ahead of the confirmed chunks than the window allows. */
  mustWait(plan: ChunkPlan): boolean {
    const c = this.spec.control;
    return plan.index < Atomics.load(c, STOP) && plan.index >= Atomics.load(c, CONFIRMED) + this.spec.window;
  }

  /**
   * Simulates a chunk and sums it, or holds it until confirmed; returns its counter sums, or
   * undefined when the run has stopped before the chunk (it is not simulated).
   */
  run(plan: ChunkPlan): ChunkTotals | undefined {
    if (plan.index >= Atomics.load(this.spec.control, STOP)) return undefined;
    // A chunk confirmed before it runs (every chunk of a fixed run) writes its key rows into the
    // lane's grid; a precision run's chunk is confirmed only once its totals are in, after it ran,
    // so it writes into a grid of its own, added with it once it is confirmed.
    const confirmed = plan.index < Atomics.load(this.spec.control, CONFIRMED);
    const out = this.sim.run(chunkRng(this.spec.seed, plan.index), plan, confirmed ? this.state.grid : undefined);
    const totals = { index: plan.index, actions: out.actions, sum: out.sum.slice(), sumSq: out.sumSq.slice() };
    if (plan.index < Atomics.load(this.spec.control, CONFIRMED)) this.state.addChunk(out);
    else this.held.push(detachedOutput(out));
    Atomics.add(this.spec.control, FINISHED, 1);
    this.chunks++;
    return totals;
  }

  /** Adds the held chunks now confirmed and drops those past the stop; returns how many are still held. */
  settle(): number {
    if (this.held.length === 0) return 0;
    const confirmed = Atomics.load(this.spec.control, CONFIRMED);
    const stop = Atomics.load(this.spec.control, STOP);
    this.held = this.held.filter((out) => {
      if (out.index >= stop) return false;
      if (out.index >= confirmed) return true;
      this.state.addChunk(out);
      return false;
    });
    return this.held.length;
  }
}
