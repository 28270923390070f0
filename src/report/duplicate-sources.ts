/** The three sources of duplicates, shared by the report's chart (charts.ts) and the lab's bar (lab/breakdown.ts). */
import { metricShort } from '../results/metric-registry.js';
import type { Metrics } from '../results/metrics.js';

/** The sources, in report order, each with its bar's label: its metric's `short` in the registry (`transport retries`). */
export const DUPLICATE_SOURCES = (['transport', 'replan', 'replay'] as const).map((key) => [key, metricShort(`duplicates_per_1000.${key}`)] as const);

/**
 * Whether no source had a duplicate (every value 0). A chart then draws no intervals: each
 * would span its axis from 0 to its upper bound and read as the most there could be.
 */
export function noDuplicates(metrics: Pick<Metrics, 'duplicates_per_1000'>): boolean {
  return DUPLICATE_SOURCES.every(([key]) => metrics.duplicates_per_1000[key].value === 0);
}
