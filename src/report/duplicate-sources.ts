/** The sources of duplicates, shared by the report's chart (charts.ts) and the lab's bar (lab/breakdown.ts). */
import { metricShort } from '../results/metric-registry.js';
import type { Estimate, Metrics } from '../results/metrics.js';

type Source = 'transport' | 'replan' | 'replay' | 'redelivery';

/** The three sources every run has, in report order, each with its bar's label: its metric's `short` in the registry (`transport retries`). */
const DUPLICATE_SOURCES = (['transport', 'replan', 'replay'] as const).map((key) => [key, metricShort(`duplicates_per_1000.${key}`)] as const);

/** The fourth, a trigger's redeliveries (docs/model.md, "Inbound delivery"): only a run with a trigger reports it. */
const REDELIVERY = ['redelivery', metricShort('duplicates_per_1000.redelivery')] as const;

/** The sources `metrics` report, in report order, each with its bar's label and its estimate. */
export function duplicateSources(metrics: Pick<Metrics, 'duplicates_per_1000'>): { key: Source; label: string; e: Estimate }[] {
  const d = metrics.duplicates_per_1000;
  const sources: (readonly [Source, string])[] = d.redelivery === undefined ? DUPLICATE_SOURCES : [...DUPLICATE_SOURCES, REDELIVERY];
  return sources.map(([key, label]) => ({ key, label, e: d[key] as Estimate }));
}

/**
 * Whether no source had a duplicate (every value 0). A chart then draws no intervals: each
 * would span its axis from 0 to its upper bound and read as the most there could be.
 */
export function noDuplicates(metrics: Pick<Metrics, 'duplicates_per_1000'>): boolean {
  return duplicateSources(metrics).every((s) => s.e.value === 0);
}
