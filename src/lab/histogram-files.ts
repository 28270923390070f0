/**
 * The histogram files a scenario's latency reads, as the lab page carries them: the page reads no
 * files, so `idem-sim lab` puts each file's loaded buckets into the page, and the page's engine
 * takes them from there, as it takes an empirical file's values.
 */
import type { HistogramBucket } from '../model/latency/histogram-data.js';
import type { HistogramSpec } from '../model/latency/histogram.js';

/** Loaded buckets as JSON carries them: [bound in ms, or null for the last bucket's Infinity; cumulative count]. */
export type CarriedBuckets = readonly (readonly [number | null, number])[];

/** Which histogram of which file, as the scenario writes it: one file read with another metric, format or unit gives other buckets. */
export const histogramKey = (spec: Pick<HistogramSpec, 'file' | 'format' | 'metric' | 'unit'>): string =>
  JSON.stringify([spec.file, spec.format, spec.metric, spec.unit]);

export const carried = (values: readonly HistogramBucket[]): CarriedBuckets => values.map((b) => [Number.isFinite(b.le) ? b.le : null, b.count]);

export const uncarried = (buckets: CarriedBuckets): HistogramBucket[] => buckets.map(([le, count]) => ({ le: le ?? Infinity, count }));
