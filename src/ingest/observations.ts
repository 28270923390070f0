/**
 * What `fit` reads, whatever its source: a histogram (cumulative buckets in ms, read as
 * Prometheus's histogram_quantile reads them) or the observed durations themselves (in ms,
 * sorted). Its quantiles and the share of it above a time, by one reading each.
 */
import { aboveEveryBound, finiteBuckets, histogramQuantile, histogramShareAbove, type HistogramBucket } from '../model/latency/histogram-data.js';
import type { FoundHistogram } from './source.js';

export type Observations =
  | { readonly kind: 'histogram'; readonly found: FoundHistogram; readonly values: readonly HistogramBucket[] }
  | { readonly kind: 'durations'; readonly sorted: Float64Array; readonly name: string };

/** How many observations: a histogram's total, or the durations' count. */
export const countOf = (o: Observations): number => (o.kind === 'histogram' ? finiteBuckets(o.values).total : o.sorted.length);

/**
 * The q-quantile in ms: histogram_quantile's for a histogram; for durations the linear
 * interpolation between order statistics (Hyndman and Fan's type 7, R's and numpy's default).
 */
export function quantileOf(o: Observations, q: number): number {
  if (o.kind === 'histogram') return histogramQuantile(o.values, q);
  const h = (o.sorted.length - 1) * q;
  const lo = Math.floor(h);
  const below = o.sorted[lo] as number;
  return lo + 1 < o.sorted.length ? below + (h - lo) * ((o.sorted[lo + 1] as number) - below) : below;
}

/** The share of observations longer than `ms`: for a histogram as it is sampled (its +Inf bucket at the highest bound). */
export function shareAbove(o: Observations, ms: number): number {
  if (o.kind === 'histogram') return histogramShareAbove(o.values, ms);
  // The first index whose duration is above ms.
  let lo = 0, hi = o.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((o.sorted[mid] as number) > ms) hi = mid; else lo = mid + 1;
  }
  return (o.sorted.length - lo) / o.sorted.length;
}

/** The share the data cannot place: a histogram's observations above its highest bound (0 for durations). */
export const beyondEveryBound = (o: Observations): number => (o.kind === 'histogram' ? aboveEveryBound(o.values) : 0);

/** The highest finite bound of a histogram (Infinity for durations: every one is known). */
export function highestBound(o: Observations): number {
  if (o.kind !== 'histogram') return Infinity;
  const { finite } = finiteBuckets(o.values);
  return (finite[finite.length - 1] as HistogramBucket).le;
}
