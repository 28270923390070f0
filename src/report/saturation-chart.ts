/**
 * The service's saturation over time (docs/model.md, "Saturation"), drawn as the series' charts
 * are (series-chart.ts): for each bucket, the share of it with every worker in force busy (a pause
 * of 0 workers included), from the coupled engine's exact episodes (engine/coupled/saturation.ts's
 * SaturationTally), the drain after the load's end included. Test contract: `data-reading="saturated_share"`.
 */
import { duration } from './format.js';
import { plotChart, valueColumns, type SeriesChartInput } from './series-chart.js';

/** The chart's key (`data-reading`): the metric whose share of the whole load it splits by bucket. */
export const SATURATION_READING = 'saturated_share';

/** `ms[b]`: saturated ms in bucket `b` of the series' step (buckets past its end count 0). */
export function saturationChart(input: SeriesChartInput, ms: readonly number[]): string {
  const { step } = input.series;
  const buckets = Math.max(input.series.buckets, ms.length);
  const cols = valueColumns(buckets, step, (b) => (100 * (ms[b] ?? 0)) / step);
  return plotChart(input, {
    attr: 'data-reading', key: SATURATION_READING, id: 'reading-saturated-share',
    label: 'Saturated: every worker busy',
    subtitle: `${SATURATION_READING} by bucket: % of each ${duration(step)} with no worker free`,
    title: 'Share of each bucket with every worker busy over the run',
    what: `The share of each bucket with every worker in force busy (${SATURATION_READING}, whose mean over the load is the run's)`,
    value: (v) => `${Number(v.toFixed(1))}%`,
    cols, yTop: 100,
  });
}
