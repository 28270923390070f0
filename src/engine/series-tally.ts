/**
 * A chunk's series as the engine counts them (series.ts names the counts): one row of counts
 * per bucket from the chunk's first, grown as events come later. Reset per chunk; only the
 * rows used are cleared, so a fine step costs nothing where no event falls.
 */
import { MAX_SERIES_BUCKETS } from '../model/limits.js';
import { NUM_SERIES, type SeriesCounts } from '../model/series.js';

/**
 * How the message of a series that ran past its buckets begins: the event's time could not be
 * bounded before the run (a latency distribution's tail is unbounded), so the run stops there.
 * A prefix, not a class, because an error from a worker thread keeps only its message.
 */
export const SERIES_OVERFLOW = 'the series ran past its buckets:';
/** How that message begins when the run went on to its end first (`SeriesTally`'s `toTheEnd`): the step that holds the whole run follows. */
export const SERIES_SHORT = `${SERIES_OVERFLOW} the run's last event came at`;

/** A step in ms as --series takes it: whole ms below a second, whole seconds from one. */
const stepText = (ms: number): string => (ms < 1000 ? `${ms}ms` : `${ms / 1000}s`);

export class SeriesTally {
  /** Bucket index of row 0: the bucket of the chunk's start. */
  base = 0;
  /** Rows used so far (the row of the latest event + 1). */
  used = 0;
  private counts = new Int32Array(64 * NUM_SERIES);
  private offset = 0;
  /** With `toTheEnd`: the latest run time (ms) of an event past the buckets, -1 while there is none. */
  private beyond = -1;

  /**
   * `toTheEnd` (the coupled engine, whose one tally spans the run): an event past the buckets
   * is not counted but remembered, the run goes on, and `checkReach` at its end refuses it with
   * the step that holds its last event. A coupled run's queue may serve its backlog long after
   * the last call, which no bound known before the run foresees; the run is the same whatever
   * the step, so that step then holds it. Without it an event past the buckets stops the run.
   */
  constructor(readonly step: number, private readonly toTheEnd = false) {}

  /** A new chunk, starting at run time `offset` (ms). */
  begin(offset: number): void {
    this.counts.fill(0, 0, this.used * NUM_SERIES);
    this.used = 0;
    this.offset = offset;
    this.base = Math.floor(offset / this.step);
  }

  /** One event of count `m` at chunk time `t` (ms from the chunk's start). */
  add(m: number, t: number, n = 1): void {
    const row = Math.floor((this.offset + t) / this.step) - this.base;
    if (row >= this.used && !this.reach(row, t)) return;
    this.counts[row * NUM_SERIES + m]! += n;
  }

  /** Throws when an event fell past the buckets (with `toTheEnd`, once the run is over), naming the step that holds the run's last event. */
  checkReach(): void {
    if (this.beyond < 0) return;
    const exact = this.beyond / MAX_SERIES_BUCKETS;
    const least = exact < 1000 ? Math.floor(exact) + 1 : (Math.floor(exact / 1000) + 1) * 1000;
    throw new Error(`${SERIES_SHORT} minute ${(this.beyond / 60_000).toFixed(1)}, in bucket ${Math.floor(this.beyond / this.step).toLocaleString('en-US')} of a series of ${this.step} ms buckets, past the ${MAX_SERIES_BUCKETS.toLocaleString('en-US')} a series may hold: a step of ${stepText(least)} or more holds the whole run`);
  }

  /** The rows used, as a view (valid until the next `begin`). */
  rows(): Int32Array {
    return this.counts.subarray(0, this.used * NUM_SERIES);
  }

  /** Makes room for `row` (an event at chunk time `t`); false when it lies past the buckets and the run goes on (`toTheEnd`). */
  private reach(row: number, t: number): boolean {
    if (this.base + row >= MAX_SERIES_BUCKETS) {
      if (this.toTheEnd) {
        this.beyond = Math.max(this.beyond, this.offset + t);
        return false;
      }
      throw new Error(`${SERIES_OVERFLOW} an event at ${this.step * (this.base + row)} ms of the run is in bucket ${this.base + row}, past the ${MAX_SERIES_BUCKETS} a series of ${this.step} ms buckets may hold`);
    }
    if ((row + 1) * NUM_SERIES > this.counts.length) {
      const grown = new Int32Array(Math.max(this.counts.length * 2, (row + 1) * NUM_SERIES));
      grown.set(this.counts.subarray(0, this.used * NUM_SERIES));
      this.counts = grown;
    }
    this.used = row + 1;
    return true;
  }
}

/** A run's series: the chunks' rows added at their buckets. */
export class SeriesSum {
  private counts = new Float64Array(0);
  buckets = 0;

  constructor(readonly step: number) {}

  /** Adds rows of counts whose first row is bucket `base`. */
  add(base: number, rows: ArrayLike<number>): void {
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

  private rowHasEvents(b: number): boolean {
    for (let m = 0; m < NUM_SERIES; m++) if (this.counts[b * NUM_SERIES + m] !== 0) return true;
    return false;
  }

  /** The run's series (series.ts), a copy. */
  result(): SeriesCounts {
    return { step: this.step, buckets: this.buckets, counts: this.counts.slice(0, this.buckets * NUM_SERIES) };
  }
}
