/**
 * `fit`'s output: YAML a person pastes under `service:` (the chosen form of the latency, the
 * others as comments beside it, each with how well it fits) and, as comments, the advice the
 * data give. Every value is written as a scenario takes it (durations with their unit).
 */
import type { HistogramUnit } from '../model/latency/histogram-data.js';
import { percent } from './data-warnings.js';
import { FIT_FORMS, type FitForm } from './fit-forms.js';
import { advice, fittedLognormal, round3, throughP50P99, type Advice, type LognormalFit, type Quantile } from './fit.js';
import { countOf, quantileOf, shareAbove, type Observations } from './observations.js';


/** A duration as a scenario writes it, to three significant digits: 412ms, 1.23s, 0.25ms. */
export const durationText = (ms: number): string => (ms >= 1000 ? `${round3(ms / 1000)}s` : ms >= 0.001 ? `${round3(ms)}ms` : '0ms');

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

/** Everything `fit` says of the observations. */
export interface FitReport {
  readonly what: string;
  readonly histogram: HistogramValue;
  readonly lognormal: LognormalFit | { problem: string };
  readonly percentiles: (LognormalFit & { p99: number }) | { problem: string };
  readonly advice: Advice;
}

export function fitReport(o: Observations, what: string, timeouts?: readonly number[]): FitReport {
  return { what, histogram: histogramValue(o), lognormal: fittedLognormal(o), percentiles: throughP50P99(o), advice: advice(o, timeouts) };
}

/** The value `service.latency` takes in the chosen form, or why that form has none. */
export function latencyValue(r: FitReport, form: FitForm): Record<string, unknown> | { problem: string } {
  if (form === 'histogram') return { ...r.histogram };
  if (form === 'lognormal') return 'problem' in r.lognormal ? r.lognormal : { median: durationText(r.lognormal.median), sigma: r.lognormal.sigma };
  return 'problem' in r.percentiles ? r.percentiles : { p50: durationText(r.percentiles.median), p99: durationText(r.percentiles.p99) };
}

function histogramLines(h: HistogramValue): string[] {
  return ['latency:', '  dist: histogram', ...(h.unit ? [`  unit: ${h.unit}`] : []), '  buckets:',
    ...h.buckets.map((b) => `    - {le: ${b.le}, count: ${b.count}}`), ...(h.total !== undefined ? [`  total: ${h.total}`] : [])];
}

/** One form's lines: active, or commented out; with the line that says what it is and how well it fits. */
function formLines(r: FitReport, form: FitForm, active: boolean): string[] {
  const off = (lines: string[]) => (active ? lines : lines.map((l) => `# ${l}`));
  if (form === 'histogram') {
    const unit = r.histogram.unit ?? 's';
    return [`# The histogram itself (le in ${unit === 's' ? 'seconds' : unit}), sampled as Prometheus's histogram_quantile reads it:`, ...off(histogramLines(r.histogram))];
  }
  const fit = form === 'lognormal' ? r.lognormal : r.percentiles;
  const head = form === 'lognormal' ? 'A lognormal fitted to the quantiles p10 to p99' : 'A lognormal through the p50 and the p99';
  if ('problem' in fit) return [`# ${head}: none, as ${fit.problem}.`];
  const value = latencyValue(r, form) as Record<string, unknown>;
  return [`# ${head}; its largest quantile error is ${percent(fit.worst.error)} (at ${fit.worst.at}):`,
    ...off([`latency: {${Object.entries(value).map(([k, v]) => `${k}: ${String(v)}`).join(', ')}}`])];
}

/** A quantile as the advice says it: its duration, or above the highest bound where the data do not place it. */
const quantileText = (q: Quantile): string => (q.placed ? durationText(q.ms) : `above ${durationText(q.ms)}`);

function adviceLines(a: Advice): string[] {
  const lines = [
    `# Advice from these data (docs/latency-from-metrics.md). The healthy p99 is ${quantileText(a.p99)} (p50 ${quantileText(a.p50)}, p90 ${quantileText(a.p90)}):`,
    '# a client.timeout below it ends more than 1% of attempts unknown while nothing is wrong.',
  ];
  if (a.beyond > 0) {
    lines.push(`# ${percent(a.beyond)} of the observations lie above the highest bound, ${durationText(a.top)}: how far above, the histogram cannot tell.`);
  }
  const rows = a.timeouts.map((t) => [durationText(t.ms), t.atMost ? `at most ${percent(t.share)} (at or above the highest bound)` : percent(t.share)]);
  const width = Math.max('client.timeout'.length, ...rows.map(([t]) => (t as string).length)) + 3;
  return [...lines, `#   ${'client.timeout'.padEnd(width)}attempts that would end unknown (latency over the timeout)`,
    ...rows.map(([t, share]) => `#   ${(t as string).padEnd(width)}${share}`)];
}

/** The whole output: the chosen form active, the others commented, then the advice. */
export function fitText(r: FitReport, form: FitForm): string {
  const order = [form, ...FIT_FORMS.filter((f) => f !== form)];
  const blocks = order.map((f) => formLines(r, f, f === form));
  return `${[`# idem-sim fit: ${r.what}.`, '# Paste the latency below under service: in a scenario, or write it there with --into SCENARIO.', '#',
    ...blocks.flatMap((b, i) => (i === 0 ? b : ['#', ...b])), '#', ...adviceLines(r.advice)].join('\n')}\n`;
}

/** Unit words for the description of what was read. */
export const unitName = (unit: HistogramUnit): string => (unit === 's' ? 'seconds' : unit === 'ms' ? 'milliseconds' : unit === 'us' ? 'microseconds' : 'nanoseconds');
