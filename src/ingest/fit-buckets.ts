/**
 * The buckets of what `fit` reads: the histogram form it prints (a histogram's own buckets, or
 * one made of the durations), and the same buckets as the counts a fit's likelihood and goodness
 * are computed on, with the observations at exactly 0 ms apart (a lognormal has no mass there).
 */
import { finiteBuckets, type HistogramBucket, type HistogramUnit } from '../model/latency/histogram-data.js';
import type { Bins } from './lognormal-mix.js';
import { shareAbove, type Observations } from './observations.js';

/** A number to three significant digits, as a person writes it. */
export const round3 = (x: number): number => +x.toPrecision(3);

/** A histogram form's keys as a scenario writes them. */
export interface HistogramValue { dist: 'histogram'; unit?: HistogramUnit; buckets: { le: number; count: number }[]; total?: number }

/** A count as written: six significant digits (a rate's increase is fractional), rounding keeps the counts' order. */
const tidy = (count: number): number => +count.toPrecision(6);

/**
 * The durations' histogram: bounds (ms, 3 significant digits) at the observed durations of every
 * 5th percentile's rank, p99's, p99.9's and the longest (as many as there are durations at most),
 * each count the durations at most its bound.
 */
function durationBuckets(o: Observations & { kind: 'durations' }): HistogramValue {
  const { sorted } = o;
  const n = sorted.length;
  const ranks = [...Array.from({ length: 20 }, (_, i) => (i + 1) / 20), 0.99, 0.999].map((p) => Math.max(0, Math.ceil(p * n) - 1));
  const bounds = [...new Set(ranks.map((r) => round3(sorted[r] as number)))].sort((a, b) => a - b);
  const atMost = (le: number): number => Math.round(n * (1 - shareAbove(o, le)));
  // A bound rounded below the longest duration leaves it above every bound: the total counts it then.
  const buckets = bounds.map((le) => ({ le, count: atMost(le) }));
  return { dist: 'histogram', unit: 'ms', buckets, ...(n > (buckets[buckets.length - 1] as { count: number }).count ? { total: n } : {}) };
}

/** The histogram form of the observations: a histogram's own buckets in its unit, or one made of the durations. */
export function histogramValue(o: Observations): HistogramValue {
  if (o.kind === 'durations') return durationBuckets(o);
  const { found } = o;
  let before = 0;
  const buckets = found.buckets.map((b) => ({ le: b.le, count: tidy(before = Math.max(before, b.count)) }));
  const total = found.total === null ? undefined : tidy(Math.max(before, found.total));
  return { dist: 'histogram', ...(found.unit === 's' ? {} : { unit: found.unit }), buckets, ...(total !== undefined && total > before ? { total } : {}) };
}

/** The observations as fitted: how many lie at exactly 0 ms, and the others in bins ending with the one above every bound (empty or not). */
export interface Binned { readonly zeros: number; readonly total: number; readonly bins: Bins }

/** Cumulative buckets (bounds in ms, counts at most each) and the total, as bins of the observations above 0 ms. */
function binned(buckets: readonly HistogramBucket[], total: number, zeros: number): Binned {
  const lo: number[] = [], hi: number[] = [], count: number[] = [];
  let start = 0, before = zeros;
  for (const b of buckets) {
    if (b.le <= 0) continue;
    lo.push(Math.log(start)); hi.push(Math.log(b.le)); count.push(Math.max(0, b.count - before));
    start = b.le; before = Math.max(before, b.count);
  }
  lo.push(Math.log(start)); hi.push(Infinity); count.push(Math.max(0, total - before));
  return { zeros, total, bins: { lo, hi, count } };
}

/**
 * The bins a fit reads: a histogram's own buckets (its bucket at le = 0, if any, holds the zeros),
 * or for durations the buckets of their histogram form, the durations of exactly 0 ms apart.
 */
export function binsOf(o: Observations): Binned {
  if (o.kind === 'histogram') {
    const { finite, total } = finiteBuckets(o.values);
    const zeros = finite.filter((b) => b.le <= 0).reduce((m, b) => Math.max(m, b.count), 0);
    return binned(finite, total, zeros);
  }
  const n = o.sorted.length;
  const zeros = Math.round(n * (1 - shareAbove(o, 0)));
  const buckets = durationBuckets(o).buckets.map((b) => ({ le: b.le, count: Math.round(n * (1 - shareAbove(o, b.le))) }));
  return binned(buckets, n, zeros);
}
