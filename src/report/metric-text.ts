/**
 * A metric's value in words, by what the registry says it is (an estimate ± its 95% CI, a
 * duration, a percentage or a number), and its name standing alone: one home for the run
 * table, the HTML report, the sweep's charts and the lab.
 */
import { readMetric, type MetricPath } from '../results/metric-paths.js';
import { METRICS } from '../results/metric-registry.js';
import type { Estimate, Metrics } from '../results/metrics.js';
import { duration, estimateText, num } from './format.js';

/** The value of `path` in `m` as the run table writes it; – where the run has none (a metric it does not report, a quantile of no samples). */
export function metricText(m: Metrics, path: MetricPath): string {
  const d = METRICS[path];
  const r = readMetric(m, path);
  if (r.value === null) return '–';
  if (d.kind === 'estimate') return estimateText(r as Estimate);
  switch (d.unit) {
    case 'ms': return duration(r.value);
    case 'fraction': return `${(r.value * 100).toFixed(2)}%`;
    case 'keys': return num(Math.round(r.value)); // steady-state keys are fractional
    case 'count': case 'MB': case 'actions': return num(r.value);
    default: return assertNever(d.unit);
  }
}

/** `text` with its first letter capital: a metric's title as a chart's title. */
export const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

function assertNever(x: never): never {
  throw new TypeError(`unhandled metric unit ${String(x)}`);
}
