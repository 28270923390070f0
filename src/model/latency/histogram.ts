/**
 * `{dist: histogram, buckets: [{le, count}, ...], total}`, or `{dist: histogram, file, metric}`:
 * latencies as a Prometheus or OpenTelemetry histogram counts them, sampled uniformly inside a
 * bucket as Prometheus's `histogram_quantile` interpolates (`histogram-data.ts`). A file's
 * buckets are read by the shell (`loadLatencyData` in `model/latency.ts`), and written buckets
 * are turned into ms there too, so only a loaded spec, with its `values`, can be run.
 */
import type { Rng } from '../../random/rng.js';
import { MAX_HISTOGRAM_BOUND, MAX_HISTOGRAM_BUCKETS, MAX_HISTOGRAM_COUNT } from '../limits.js';
import { choice, list, real, section, text } from '../params.js';
import type { LatencyCut, LatencyForm, LatencyProblem, LatencySampler } from './form.js';
import { nextUp } from './next-up.js';
import { bucketProblem, finiteBuckets, histogramMean, histogramValues, HISTOGRAM_UNITS, MAX_COUNT_TEXT, UNIT_MS, type HistogramBucket, type HistogramUnit } from './histogram-data.js';

export const HISTOGRAM_FORMATS = ['prometheus', 'otlp'] as const;
export type HistogramFormat = (typeof HISTOGRAM_FORMATS)[number];

export interface HistogramSpec {
  dist: 'histogram';
  /** Cumulative buckets as written, bounds in `unit`; empty when a file holds them. */
  buckets: readonly HistogramBucket[];
  /** All observations (the +Inf bucket), when written; null: the last bucket's count. */
  total: number | null;
  /** The bounds' unit as written; null: a file's own (OTLP's unit), else seconds. */
  unit: HistogramUnit | null;
  file: string | null;
  /** The file's format as written; null: otlp for a .json file, else prometheus. */
  format: HistogramFormat | null;
  /** Which histogram of the file: `name` or `name{label="value",...}`; null: the file's only one. */
  metric: string | null;
  /** Loaded: cumulative buckets in ms, the observations above every bound in a last bucket at Infinity. */
  values: readonly HistogramBucket[];
}

/** Prometheus's convention: a latency's base unit is the second. */
export const DEFAULT_HISTOGRAM_UNIT: HistogramUnit = 's';

/** A metric's name and label matchers, as PromQL writes a selector (the shell reads it: ingest/selector.ts). */
const SELECTOR_PATTERN = '^[A-Za-z_:][A-Za-z0-9_:.]*(\\{.*\\})?$';

class HistogramSampler implements LatencySampler {
  private readonly bounds: Float64Array;
  private readonly counts: Float64Array;
  private readonly total: number;
  private readonly top: number;
  constructor(values: readonly HistogramBucket[]) {
    const { finite, total } = finiteBuckets(values);
    this.bounds = Float64Array.from(finite, (b) => b.le);
    this.counts = Float64Array.from(finite, (b) => b.count);
    this.total = total;
    this.top = this.bounds[this.bounds.length - 1] as number;
  }
  sample(rng: Rng): number {
    return this.valueAt(rng.next() * this.total);
  }
  cut(at: number): LatencyCut {
    return new HistogramCut(this, at);
  }
  /**
   * The observations at most `at` and those above it, each summed from its own side (the bucket
   * `at` falls in shared by its width), so that a small side keeps its digits.
   */
  split(at: number): [number, number] {
    let start = 0, before = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      const le = this.bounds[i] as number, count = this.counts[i] as number;
      if (at >= le) { start = le; before = count; continue; }
      const inside = count - before, width = le - start;
      return [before + inside * ((at - start) / width), this.total - count + inside * ((le - at) / width)];
    }
    return [this.total, 0];
  }
  /** The value of rank `rank` in [0, total]: the inverse of the counts' piecewise-linear CDF, the observations above every bound at the highest. */
  valueAt(rank: number): number {
    // The first bucket whose count is above the rank: rank lies in [its count before, its count).
    let lo = 0, hi = this.counts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.counts[mid] as number) > rank) hi = mid; else lo = mid + 1;
    }
    if (lo === this.counts.length) return this.top;
    const start = lo === 0 ? 0 : this.bounds[lo - 1] as number;
    const before = lo === 0 ? 0 : this.counts[lo - 1] as number;
    return start + ((this.bounds[lo] as number) - start) * ((rank - before) / ((this.counts[lo] as number) - before));
  }
}

/** A histogram split at `at`: each side's ranks, drawn uniformly and read through the histogram's CDF. */
class HistogramCut implements LatencyCut {
  readonly pBelow: number;
  readonly pAbove: number;
  private readonly countBelow: number;
  private readonly countAbove: number;
  private readonly justAbove: number;
  constructor(private readonly histogram: HistogramSampler, private readonly at: number) {
    [this.countBelow, this.countAbove] = histogram.split(at);
    const total = this.countBelow + this.countAbove;
    this.pBelow = this.countBelow / total;
    this.pAbove = this.countAbove / total;
    this.justAbove = nextUp(at);
  }
  // A rank at the side's end may land on the cut itself, or past empty buckets: the clamp keeps the side's value on its side.
  belowQuick(): number {
    return NaN; // no table: every draw through below
  }
  quickBetween(): boolean {
    return false;
  }

  readonly smooth = false;
  belowCdf(): number {
    return NaN; // belowExact is bisected
  }
  belowExact(v: number): number {
    return this.below(v); // exact already
  }
  below(v: number): number {
    return Math.min(this.at, this.histogram.valueAt(v * this.countBelow));
  }
  above(v: number): number {
    return Math.max(this.justAbove, this.histogram.valueAt(this.countBelow + v * this.countAbove));
  }
}

/** What a histogram's settings say wrong (its data, if from a file, are checked where they are read). */
function check(s: HistogramSpec): LatencyProblem | undefined {
  const fileFix = 'Give either the buckets (and total) or a file that holds them.';
  if (s.file !== null) {
    if (s.buckets.length > 0) return { key: 'buckets', problem: 'buckets are given with a file, which holds its own', fix: fileFix };
    if (s.total !== null) return { key: 'total', problem: 'total is given with a file, whose histogram has its own (its +Inf bucket)', fix: fileFix };
    return undefined;
  }
  for (const key of ['format', 'metric'] as const) {
    if (s[key] !== null) return { key, problem: `${key} chooses what a file holds, but no file is given`, fix: 'Give the file (file: latency.prom), or remove it.' };
  }
  if (s.buckets.length === 0) {
    return { key: 'buckets', problem: 'the histogram has neither buckets nor a file',
      fix: 'Give cumulative buckets as Prometheus counts them, such as buckets: [{le: 0.1, count: 50}, {le: 0.5, count: 90}, {le: 1, count: 99}] with total: 100, or a file (a Prometheus text exposition or an OTLP JSON export).' };
  }
  const found = bucketProblem(s.buckets, s.total, UNIT_MS[s.unit ?? DEFAULT_HISTOGRAM_UNIT]);
  if (found === undefined) return undefined;
  if (found.index === null) return { key: found.field === 'total' ? 'total' : 'buckets', problem: found.problem, fix: found.fix };
  return { key: 'buckets', at: [found.index, found.field ?? 'le'], problem: found.problem, fix: found.fix };
}

export const histogram: LatencyForm<HistogramSpec> = {
  keys: {
    buckets: list('cumulative buckets as Prometheus counts them, in order of le', MAX_HISTOGRAM_BUCKETS, section('a bucket', {
      le: real(undefined, 0, MAX_HISTOGRAM_BOUND, 'a number >= 0, in seconds unless unit: says otherwise (the bucket\'s upper bound; the +Inf bucket is total)'),
      count: real(undefined, 0, MAX_HISTOGRAM_COUNT, `a number from 0 to ${MAX_COUNT_TEXT} (observations at most le, the buckets before included)`),
    })),
    total: real(undefined, 0, MAX_HISTOGRAM_COUNT, `a number from 0 to ${MAX_COUNT_TEXT} (all observations: the +Inf bucket, Prometheus's _count; the last bucket's count when left out)`),
    unit: choice(HISTOGRAM_UNITS, undefined, 'the unit of le: s when left out, as Prometheus\'s convention is, or an OTLP file\'s own'),
    file: text('a path, relative to the scenario file, of a Prometheus text exposition or an OTLP JSON export holding the histogram'),
    format: choice(HISTOGRAM_FORMATS, undefined, "the file's format: otlp for a .json file when left out, else prometheus"),
    metric: text('the histogram in the file: its name, with labels to choose one series if it has several, as name{label="value"} (the file\'s only histogram when left out)', SELECTOR_PATTERN),
  },
  required: [],
  check,
  sampler: (s) => {
    // The loader refuses an empty histogram; this guards a spec built by hand.
    if (finiteBuckets(s.values).finite.length === 0 || !(finiteBuckets(s.values).total > 0)) throw new RangeError('a latency histogram needs a finite bucket and observations');
    return new HistogramSampler(s.values);
  },
  // As the sampler draws; written buckets give it before loading, a file's only once read (else NaN).
  mean: (s) => (s.values !== undefined && s.values.length > 0 ? histogramMean(s.values)
    : s.file === null && s.buckets.length > 0 ? histogramMean(histogramValues(s.buckets, s.total, UNIT_MS[s.unit ?? DEFAULT_HISTOGRAM_UNIT])) : NaN),
};
