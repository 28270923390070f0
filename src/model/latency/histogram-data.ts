/**
 * A latency histogram's numbers, as Prometheus keeps them: cumulative buckets (observations at
 * most `le`) and the count of all observations (the `+Inf` bucket). What is wrong with a list of
 * them, the list in ms ready to sample, and the quantile function of Prometheus's
 * `histogram_quantile` (promql/quantile.go, bucketQuantile): uniform inside a bucket, the first
 * bucket starting at 0, the `+Inf` bucket's observations at the highest finite bound.
 */
import { MAX_DURATION_MS, MAX_HISTOGRAM_BUCKETS, MAX_HISTOGRAM_COUNT } from '../limits.js';

/** One cumulative bucket: `count` observations at most `le`. */
export interface HistogramBucket { le: number; count: number }

/** The units a bucket bound may be given in, and each one's size in ms. */
export const HISTOGRAM_UNITS = ['s', 'ms', 'us', 'ns'] as const;
export type HistogramUnit = (typeof HISTOGRAM_UNITS)[number];
export const UNIT_MS: Readonly<Record<HistogramUnit, number>> = { s: 1000, ms: 1, us: 1e-3, ns: 1e-6 };

/** MAX_HISTOGRAM_COUNT as a person reads it: 10^15. */
export const MAX_COUNT_TEXT = `10^${Math.round(Math.log10(MAX_HISTOGRAM_COUNT))}`;

/** What is wrong with a histogram: the bucket (its index) and field, or the total, and how to fix it. */
export interface BucketProblem { index: number | null; field: 'le' | 'count' | 'total' | null; problem: string; fix: string }

/**
 * Counts that fall by at most this share of the largest count still read as cumulative (and are
 * raised to the one before): sums of rates and increases over several series come out a few
 * units in the last place apart, as Prometheus's own ensureMonotonic allows for.
 */
export const MONOTONIC_TOLERANCE = 1e-9;

const CUMULATIVE_FIX = 'Each count is of every observation up to its bound (Prometheus\'s le), so counts never fall from one bucket to the next; if these are counts of each bucket alone, add to each the ones before it.';

/** The first problem of finite buckets (bounds in `unitMs` ms each) and the total of all observations (null: the last bucket's count). */
export function bucketProblem(buckets: readonly HistogramBucket[], total: number | null, unitMs: number): BucketProblem | undefined {
  const at = (index: number | null, field: BucketProblem['field'], problem: string, fix: string): BucketProblem => ({ index, field, problem, fix });
  if (buckets.length === 0) return at(null, null, 'the histogram has no bucket with a finite bound', 'Give at least one bucket with a bound (le) besides +Inf.');
  if (buckets.length > MAX_HISTOGRAM_BUCKETS) {
    return at(null, null, `the histogram has ${buckets.length.toLocaleString('en-US')} buckets, more than the ${MAX_HISTOGRAM_BUCKETS.toLocaleString('en-US')} it may hold`, 'Merge neighbouring buckets: a few dozen describe a latency well.');
  }
  const largest = Math.max(...buckets.map((b) => b.count), total ?? 0);
  const tolerance = MONOTONIC_TOLERANCE * (Number.isFinite(largest) ? largest : 0);
  for (let i = 0; i < buckets.length; i++) {
    const { le, count } = buckets[i] as HistogramBucket;
    if (!(le >= 0) || !Number.isFinite(le)) return at(i, 'le', `bucket ${i + 1}'s bound is ${le < 0 ? 'below 0' : 'not a finite number'}`, 'Give each bound (le) as a number >= 0; the +Inf bucket is the total of all observations.');
    if (!(le * unitMs <= MAX_DURATION_MS)) return at(i, 'le', `bucket ${i + 1}'s bound ${le} is longer than 10 years`, 'Check the unit of the bounds (unit: s, ms, us or ns).');
    if (!(count >= 0 && count <= MAX_HISTOGRAM_COUNT)) return at(i, 'count', `bucket ${i + 1}'s count is not a number from 0 to ${MAX_COUNT_TEXT}`, 'Give each count as the number of observations at most its bound.');
    if (i === 0) continue;
    const before = buckets[i - 1] as HistogramBucket;
    if (!(le > before.le)) {
      return at(i, 'le', `the bounds are not in order: bucket ${i + 1}'s bound ${le} is not above bucket ${i}'s, ${before.le}`, 'List the buckets from the smallest bound to the largest, each bound once.');
    }
    if (count < before.count - tolerance) {
      return at(i, 'count', `the counts are not cumulative: ${count} observations at most ${le}, fewer than the ${before.count} at most ${before.le}`, CUMULATIVE_FIX);
    }
  }
  const last = (buckets[buckets.length - 1] as HistogramBucket).count;
  if (total !== null) {
    if (!(total >= 0 && total <= MAX_HISTOGRAM_COUNT)) return at(null, 'total', `the total is not a number from 0 to ${MAX_COUNT_TEXT}`, 'Give the total as the number of all observations (the +Inf bucket).');
    if (total < last - tolerance) return at(null, 'total', `the total (${total}) is below the last bucket's count (${last})`, `Make the total at least the last bucket's count: it counts every observation (the +Inf bucket, Prometheus's _count), and ${CUMULATIVE_FIX.charAt(0).toLowerCase()}${CUMULATIVE_FIX.slice(1)}`);
  }
  if (!((total ?? last) > 0)) return at(null, total === null ? null : 'total', 'the histogram is empty: it counts no observation', 'Give a histogram with observations: over a time range in which the service was called.');
  return undefined;
}

/**
 * Checked buckets (bounds in `unitMs` ms each) and total as the list a sampler draws from: bounds
 * in ms, counts raised where they fell within MONOTONIC_TOLERANCE, and the observations above
 * every bound, if any, in a last bucket at Infinity.
 */
export function histogramValues(buckets: readonly HistogramBucket[], total: number | null, unitMs: number): HistogramBucket[] {
  let before = 0;
  const values = buckets.map((b) => ({ le: b.le * unitMs, count: (before = Math.max(before, b.count)) }));
  if (total !== null && total > before) values.push({ le: Infinity, count: total });
  return values;
}

/** The finite buckets of a loaded histogram, and the count of all observations. */
export function finiteBuckets(values: readonly HistogramBucket[]): { finite: readonly HistogramBucket[]; total: number } {
  const last = values[values.length - 1];
  const finite = last !== undefined && last.le === Infinity ? values.slice(0, -1) : values;
  return { finite, total: last?.count ?? 0 };
}

/**
 * The mean of what a histogram's sampler draws (histogram.ts): each bucket's share at its
 * midpoint (uniform inside it, from the bound before, 0 for the first), and the observations above
 * every bound at the highest finite bound, where the sampler puts them.
 */
export function histogramMean(values: readonly HistogramBucket[]): number {
  const { finite, total } = finiteBuckets(values);
  let sum = 0, start = 0, before = 0;
  for (const b of finite) {
    sum += (b.count - before) * ((start + b.le) / 2);
    start = b.le;
    before = b.count;
  }
  return total > 0 && finite.length > 0 ? (sum + (total - before) * start) / total : NaN;
}

/** The share of observations above the highest finite bound (the +Inf bucket's), which a histogram places at that bound. */
export function aboveEveryBound(values: readonly HistogramBucket[]): number {
  const { finite, total } = finiteBuckets(values);
  return total > 0 ? (total - (finite[finite.length - 1]?.count ?? 0)) / total : 0;
}

/**
 * The q-quantile (0 <= q <= 1) as Prometheus's histogram_quantile gives it: the first bucket
 * whose count reaches the rank q * total, interpolated linearly inside it from the bound before
 * (0 for the first); a rank in the +Inf bucket gives the highest finite bound.
 */
export function histogramQuantile(values: readonly HistogramBucket[], q: number): number {
  const { finite, total } = finiteBuckets(values);
  const rank = q * total;
  const b = finite.findIndex((x) => x.count >= rank);
  if (b < 0) return (finite[finite.length - 1] as HistogramBucket).le;
  const end = (finite[b] as HistogramBucket).le;
  const start = b === 0 ? 0 : (finite[b - 1] as HistogramBucket).le;
  const before = b === 0 ? 0 : (finite[b - 1] as HistogramBucket).count;
  const inBucket = (finite[b] as HistogramBucket).count - before;
  // Only a rank of 0 meets an empty bucket (the first with a count >= 0): its end is where observations begin.
  return inBucket > 0 ? start + (end - start) * ((rank - before) / inBucket) : end;
}

/**
 * The share of observations above `x` ms under the same reading: the distribution whose
 * quantile function histogramQuantile is. At or beyond the highest finite bound it is 0: the
 * +Inf bucket's observations sit at that bound (aboveEveryBound says how many there are).
 */
export function histogramShareAbove(values: readonly HistogramBucket[], x: number): number {
  const { finite, total } = finiteBuckets(values);
  let start = 0, before = 0;
  for (const bucket of finite) {
    if (x >= bucket.le) { start = bucket.le; before = bucket.count; continue; }
    const below = before + (bucket.count - before) * (x > start ? (x - start) / (bucket.le - start) : 0);
    return 1 - below / total;
  }
  return 0;
}
