/**
 * A chunk's series as the engine counts them (series.ts names the counts): one row of counts
 * per bucket from the chunk's first, grown as events come later. Reset per chunk; only the
 * rows used are cleared, so a fine step costs nothing where no event falls.
 */
import { MAX_SERIES_BUCKETS } from '../model/limits.js';
import { NUM_SERIES, summedRows, type SeriesCounts } from '../model/series.js';

/**
 * How the message of a series that ran past its buckets begins: the event's time could not be
 * bounded before the run (a latency distribution's tail is unbounded), so the run stops there.
 * A prefix, not a class, because an error from a worker thread keeps only its message.
 */
export const SERIES_OVERFLOW = 'the series ran past its buckets:';

export class SeriesTally {
  /** Bucket index of row 0: the bucket of the chunk's start. */
  base = 0;
  /** Rows used so far (the row of the latest event + 1). */
  used = 0;
  private counts = new Int32Array(64 * NUM_SERIES);
  private offset = 0;

  /**
   * `coarsens` (the coupled engine, whose one tally spans the run): an event past the buckets
   * doubles the step, the rows counted so far summed two by two, as often as it takes, and the
   * run goes on. A coupled run's queue may serve its backlog long after the last call, which no
   * bound known before the run foresees; the run is the same whatever the step, so its series
   * are then those of a run asked for the longer step (the command says so: cli/shared/time.ts).
   * Without it an event past the buckets stops the run.
   */
  constructor(private stepMs: number, private readonly coarsens = false) {}

  /** The step in ms: the one asked for, or a longer one when the tally coarsened. */
  get step(): number {
    return this.stepMs;
  }

  /** A new chunk, starting at run time `offset` (ms). */
  begin(offset: number): void {
    this.counts.fill(0, 0, this.used * NUM_SERIES);
    this.used = 0;
    this.offset = offset;
    this.base = Math.floor(offset / this.stepMs);
  }

  /** One event of count `m` at chunk time `t` (ms from the chunk's start). */
  add(m: number, t: number, n = 1): void {
    let row = Math.floor((this.offset + t) / this.stepMs) - this.base;
    if (row >= this.used) row = this.reach(row, t);
    this.counts[row * NUM_SERIES + m]! += n;
  }

  /** Whether chunk times `t0` and `t1` fall in one bucket (`add` would count them in one row). */
  sameBucket(t0: number, t1: number): boolean {
    return Math.floor((this.offset + t0) / this.stepMs) === Math.floor((this.offset + t1) / this.stepMs);
  }

  /** The rows used, as a view (valid until the next `begin`). */
  rows(): Int32Array {
    return this.counts.subarray(0, this.used * NUM_SERIES);
  }

  /** Makes room for `row` (an event at chunk time `t`), coarsening first where it lies past the buckets; the event's row then. */
  private reach(row: number, t: number): number {
    while (this.base + row >= MAX_SERIES_BUCKETS) {
      if (!this.coarsens) {
        throw new Error(`${SERIES_OVERFLOW} an event at ${this.stepMs * (this.base + row)} ms of the run is in bucket ${this.base + row}, past the ${MAX_SERIES_BUCKETS} a series of ${this.stepMs} ms buckets may hold`);
      }
      this.coarsen();
      row = Math.floor((this.offset + t) / this.stepMs) - this.base;
    }
    if (row < this.used) return row;
    if ((row + 1) * NUM_SERIES > this.counts.length) {
      const grown = new Int32Array(Math.max(this.counts.length * 2, (row + 1) * NUM_SERIES));
      grown.set(this.counts.subarray(0, this.used * NUM_SERIES));
      this.counts = grown;
    }
    this.used = row + 1;
    return row;
  }

  /** Doubles the step: the rows so far summed two by two (model/series.ts). */
  private coarsen(): void {
    const last = this.base + this.used - 1;
    const summed = summedRows(this.rows(), this.base, 2, (n) => new Int32Array(Math.max(n, this.counts.length)));
    this.stepMs *= 2;
    this.used = this.used === 0 ? 0 : Math.floor(last / 2) - summed.base + 1;
    this.base = summed.base;
    this.counts = summed.rows;
  }
}

/**
 * A run's series: the chunks' rows added at their buckets. Rows counted at a longer step (a
 * coupled run's tally that coarsened) make the sum take that step, its rows so far summed into it.
 */
export class SeriesSum {
  private counts = new Float64Array(0);
  buckets = 0;

  constructor(private stepMs: number) {}

  get step(): number {
    return this.stepMs;
  }

  /** Adds rows of counts whose first row is bucket `base`, counted at `step` ms (the sum's own unless said). */
  add(base: number, rows: ArrayLike<number>, step = this.stepMs): void {
    if (step !== this.stepMs) ({ base, rows } = this.atStep(base, rows, step));
    const n = rows.length / NUM_SERIES;
    if (base + n > MAX_SERIES_BUCKETS) throw new Error(`${SERIES_OVERFLOW} ${base + n} buckets, more than the ${MAX_SERIES_BUCKETS} a series may hold`);
    const need = (base + n) * NUM_SERIES;
    if (need > this.counts.length) {
      const grown = new Float64Array(Math.max(need, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    const at = base * NUM_SERIES;
    for (let k = 0; k < rows.length; k++) this.counts[at + k]! += rows[k] as number;
    // The last bucket is the one holding the last event: trailing rows of zeros do not count.
    for (let b = base + n - 1; b >= this.buckets; b--) {
      if (this.rowHasEvents(b)) { this.buckets = b + 1; break; }
    }
  }

  /** Rows counted at `step` and the sum brought to the longer of it and the sum's step (one a multiple of the other: each tally only doubles its step). */
  private atStep(base: number, rows: ArrayLike<number>, step: number): { base: number; rows: ArrayLike<number> } {
    const to = Math.max(step, this.stepMs);
    if (to % step !== 0 || to % this.stepMs !== 0) throw new Error(`a series of ${step} ms buckets cannot be added to one of ${this.stepMs} ms`);
    if (to > this.stepMs) {
      const own = summedRows(this.counts.subarray(0, this.buckets * NUM_SERIES), 0, to / this.stepMs, (n) => new Float64Array(n));
      this.counts = own.rows;
      this.buckets = own.rows.length / NUM_SERIES;
      this.stepMs = to;
    }
    return to > step ? summedRows(rows, base, to / step, (n) => new Float64Array(n)) : { base, rows };
  }

  private rowHasEvents(b: number): boolean {
    for (let m = 0; m < NUM_SERIES; m++) if (this.counts[b * NUM_SERIES + m] !== 0) return true;
    return false;
  }

  /** The run's series (series.ts), a copy. */
  result(): SeriesCounts {
    return { step: this.step, buckets: this.buckets, counts: this.counts.slice(0, this.buckets * NUM_SERIES) };
  }
}
