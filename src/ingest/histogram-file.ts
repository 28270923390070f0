/**
 * A histogram file as a scenario names it (`{dist: histogram, file, format, metric, unit}`) or
 * `fit` reads it: a Prometheus text exposition or an OTLP/JSON metrics export, its histogram
 * chosen by the metric's selector and checked, its buckets in ms.
 */
import type { HistogramBucket, HistogramUnit } from '../model/latency/histogram-data.js';
import type { HistogramFormat } from '../model/latency/histogram.js';
import { otlpHistogram } from './otlp-metrics.js';
import { expositionHistogram } from './prometheus-text.js';
import type { Selector } from './selector.js';
import { checkedValues, type FoundHistogram, type Source } from './source.js';

/** The format a file is read in when none is given: its name says (`.json` is OTLP/JSON). */
export const formatOfFile = (file: string): HistogramFormat => (/\.json$/i.test(file) ? 'otlp' : 'prometheus');

/** The histogram a file's text holds, as found and in ms (checked: an error names the line at fault). */
export function histogramOfText(text: string, src: Source, format: HistogramFormat, metric: Selector | undefined, unit: HistogramUnit | undefined): { found: FoundHistogram; values: HistogramBucket[] } {
  const found = format === 'otlp' ? otlpHistogram(text, src, metric, unit) : expositionHistogram(text, src, metric, unit);
  return { found, values: checkedValues(src, found) };
}
