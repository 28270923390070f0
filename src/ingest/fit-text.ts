/**
 * `fit`'s output: YAML a person pastes under `service:` (the chosen form of the latency, the
 * others as comments beside it, each fit with its goodness) and, as comments, the advice the
 * data give. Every value is written as a scenario takes it (durations with their unit).
 */
import type { HistogramUnit } from '../model/latency/histogram-data.js';
import type { Goodness } from './censored-fit.js';
import { percent } from './data-warnings.js';
import { histogramValue, round3, type HistogramValue } from './fit-buckets.js';
import { FIT_FORMS, type FitForm } from './fit-forms.js';
import { advice, fits, mixtureChosen, REJECTED_AT, rejected, type Advice, type Fits, type MixtureFit, type Quantile } from './fit.js';
import type { Observations } from './observations.js';

/**
 * A duration as a scenario writes it, to three significant digits: 412ms, 1.23s, 0.25ms, and one
 * under a microsecond in as many decimals as that takes (0.000123ms: a scenario's durations have
 * no exponent), not 0ms, which a median may not be.
 */
export const durationText = (ms: number): string => (ms >= 1000 ? `${round3(ms / 1000)}s` : ms >= 0.001 ? `${round3(ms)}ms`
  : ms > 1e-90 ? `${ms.toFixed(2 - Math.floor(Math.log10(ms))).replace(/0+$/, '')}ms` : '0ms');

/** Z of p99 (Φ⁻¹(0.99)): a lognormal's p99 is its median times e^(Z99 sigma). */
const Z99 = 2.3263478740408408;

/** Everything `fit` says of the observations. */
export interface FitReport {
  readonly what: string;
  /** Whether the data are a histogram's buckets or durations (their fits and readings are told apart). */
  readonly kind: Observations['kind'];
  readonly histogram: HistogramValue;
  readonly fits: Fits;
  readonly advice: Advice;
}

export function fitReport(o: Observations, what: string, timeouts?: readonly number[]): FitReport {
  const f = fits(o);
  return { what, kind: o.kind, histogram: histogramValue(o), fits: f, advice: advice(o, f, timeouts) };
}

/** The value `service.latency` takes in the chosen form, or why that form has none. */
export function latencyValue(r: FitReport, form: FitForm): Record<string, unknown> | { problem: string } {
  if (form === 'histogram') return { ...r.histogram };
  const { lognormal, mixture } = r.fits;
  if (form === 'mixture') {
    return 'problem' in mixture ? mixture
      : { dist: 'mixture', components: mixture.components.map((c) => ({ weight: c.weight, median: durationText(c.median), sigma: c.sigma })) };
  }
  if ('problem' in lognormal) return lognormal;
  const { mu, sigma } = lognormal.fitted[0] as { mu: number; sigma: number };
  return form === 'lognormal' ? { median: durationText(lognormal.median), sigma: lognormal.sigma }
    : { p50: durationText(Math.exp(mu)), p99: durationText(Math.exp(mu + Z99 * sigma)) };
}

function histogramLines(h: HistogramValue): string[] {
  return ['latency:', '  dist: histogram', ...(h.unit ? [`  unit: ${h.unit}`] : []), '  buckets:',
    ...h.buckets.map((b) => `    - {le: ${b.le}, count: ${b.count}}`), ...(h.total !== undefined ? [`  total: ${h.total}`] : [])];
}

/** A value in YAML's flow style, on one line. */
const flow = (v: unknown): string => (Array.isArray(v) ? `[${v.map(flow).join(', ')}]`
  : typeof v === 'object' && v !== null ? `{${Object.entries(v).map(([k, x]) => `${k}: ${flow(x)}`).join(', ')}}` : String(v));

/** A p-value as read: three significant digits, and "< 0.0001" below it. */
const pText = (p: number): string => (p < 1e-4 ? 'p < 0.0001' : `p = ${+p.toPrecision(3)}`);

/** A fit's goodness in words: its chi-square, and whether it describes the buckets within their sampling error. */
export function goodnessText(g: Goodness, parameters: number): string {
  if (g.p === undefined) return `too few buckets to judge it (${g.groups} group${g.groups === 1 ? '' : 's'} of buckets expecting 5 or more, for ${parameters} parameters)`;
  const verdict = rejected(g) ? `it does not fit the buckets (p < ${REJECTED_AT})` : 'it fits the buckets within their sampling error';
  return `chi-square ${round3(g.chiSquare)} on ${g.df} degrees of freedom, ${pText(g.p)}: ${verdict}`;
}

/** Why the advice reads the fit it reads, in the words of the figures printed beside it (fit.ts mixtureChosen). */
function verdict(r: FitReport, m: MixtureFit): string {
  const { lognormal } = r.fits;
  const why = 'problem' in lognormal ? undefined : mixtureChosen(lognormal, m);
  if (why === 'ratio') return 'the lognormal does not fit; the advice reads the mixture';
  if (why === 'chi-square') return "the mixture is not significantly likelier, but the lognormal's chi-square rejects it and the mixture's does not; the advice reads the mixture";
  if ('problem' in lognormal || !rejected(lognormal.goodness)) return 'the lognormal is enough';
  return "the mixture is not significantly likelier, nor does its chi-square judge it a fit; the advice reads the lognormal";
}

/** The mixture's lines after its goodness: the likelihood ratio against the lognormal, and a component the buckets do not place. */
function mixtureNotes(r: FitReport, m: MixtureFit): string[] {
  const { statistic, p } = m.ratio;
  const notes = [`# Against the lognormal, its likelihood ratio is ${round3(statistic)} (${pText(p)} on 3 degrees of freedom): ${verdict(r, m)}.`];
  const top = r.advice.top, beyond = m.components.filter((c) => c.median > top);
  if (beyond.length > 0) {
    notes.push(`# Its component of median ${durationText((beyond[0] as { median: number }).median)} lies above the highest bound, ${durationText(top)}: the buckets say only that its observations are longer than ${durationText(top)}.`);
  }
  return notes;
}

/** A fitted form's first lines: what it is, its goodness, and which the advice reads. */
function fittedHead(r: FitReport, form: 'lognormal' | 'mixture' | 'percentiles'): string[] {
  const zeros = r.fits.zero > 0 ? ` (fitted to the ${percent(1 - r.fits.zero)} above 0 ms: a lognormal cannot take the ${percent(r.fits.zero)} at 0 ms)` : '';
  if (form === 'percentiles') return ['# The lognormal of greatest likelihood, written as its p50 and p99:'];
  const f = form === 'lognormal' ? r.fits.lognormal : r.fits.mixture;
  const what = form === 'mixture' ? 'The mixture of two lognormals of greatest likelihood'
    : r.kind === 'durations' ? "The lognormal of greatest likelihood (the durations' log mean and log standard deviation)" : 'The lognormal of greatest likelihood';
  if ('problem' in f) return [`# ${what}: none, as ${f.problem}.`];
  const head = `# ${what}${zeros}: ${goodnessText(f.goodness, form === 'mixture' ? 5 : 2)}`;
  if ('ratio' in f) return [`${head}.`, ...mixtureNotes(r, f).map((l, i, all) => (i === all.length - 1 ? `${l.slice(0, -1)}:` : l))];
  return [`${head}${r.fits.chosen === form ? '; the advice reads it' : ''}:`];
}

/** One form's lines: active, or commented out; with the line that says what it is and how well it fits. */
function formLines(r: FitReport, form: FitForm, active: boolean): string[] {
  const off = (lines: string[]) => (active ? lines : lines.map((l) => `# ${l}`));
  if (form === 'histogram') {
    const unit = r.histogram.unit ?? 's';
    return [`# The histogram itself (le in ${unit === 's' ? 'seconds' : unit}), sampled as Prometheus's histogram_quantile reads it (evenly inside each bucket):`,
      ...off(histogramLines(r.histogram))];
  }
  const value = latencyValue(r, form);
  const head = fittedHead(r, form);
  if ('problem' in value) return form === 'percentiles' ? [`# The lognormal of greatest likelihood, written as its p50 and p99: none, as ${value.problem}.`] : head;
  return [...head, ...off([`latency: ${flow(value)}`])];
}

/** A quantile as the advice says it: its duration, and where the data do not place it, that it lies above the highest bound (the data's reading) or comes of extrapolating (a fit's). */
function quantileText(q: Quantile, a: Advice): string {
  if (q.placed) return durationText(q.ms);
  return a.from === 'data' ? `above ${durationText(q.ms)}` : `${durationText(q.ms)} by extrapolation`;
}

function adviceHead(r: FitReport): string[] {
  const a = r.advice;
  const data = r.kind === 'histogram' ? "as Prometheus's histogram_quantile reads them" : 'from the durations themselves';
  const from = a.from === 'data' ? `, ${data} (no lognormal fits them)` : `, by the ${a.from} fitted above`;
  const lines = [
    `# Advice from these data (docs/latency-from-metrics.md)${from}. The healthy p99 is ${quantileText(a.p99, a)} (p50 ${quantileText(a.p50, a)}, p90 ${quantileText(a.p90, a)}):`,
    '# a client.timeout below it ends more than 1% of attempts unknown while nothing is wrong.',
  ];
  if (a.from !== 'data') lines.push(`# ${r.kind === 'histogram' ? "Prometheus's histogram_quantile reads" : 'The durations themselves give'} the p99 as ${quantileText(a.dataP99, { ...a, from: 'data' })}.`);
  const chosen = a.from === 'data' ? undefined : r.fits[a.from];
  if (chosen !== undefined && !('problem' in chosen) && rejected(chosen.goodness)) {
    lines.push(r.kind === 'histogram' ? `# The ${a.from} does not fit the buckets within their sampling error: at a bucket's bound the right column is exact, between bounds neither is.`
      : `# The ${a.from} does not fit these durations within their sampling error: the right column, their own shares, is exact for them.`);
  }
  if (a.beyond > 0) {
    lines.push(`# ${percent(a.beyond)} of the observations lie above the highest bound, ${durationText(a.top)}: how far above, the histogram cannot tell${a.from === 'data' ? '' : ' (the fit extrapolates)'}.`);
  }
  return lines;
}

function adviceLines(r: FitReport): string[] {
  const a = r.advice;
  const dataText = (t: Advice['timeouts'][number]) => (t.data.atMost ? `at most ${percent(t.data.share)} (at or above the highest bound)` : percent(t.data.share));
  const rows = a.timeouts.map((t) => [durationText(t.ms), a.from === 'data' ? dataText(t) : percent(t.share), ...(a.from === 'data' ? [] : [dataText(t)])]);
  const width = Math.max('client.timeout'.length, ...rows.map(([t]) => (t as string).length)) + 3;
  const second = Math.max(`by the ${a.from}`.length, ...rows.map((row) => (row[1] as string).length)) + 3;
  const columns = a.from === 'data' ? [] : [`#   ${''.padEnd(width)}${`by the ${a.from}`.padEnd(second)}${r.kind === 'histogram' ? "by histogram_quantile's reading" : 'in the durations'}`];
  return [...adviceHead(r), `#   ${'client.timeout'.padEnd(width)}attempts that would end unknown (latency over the timeout)`, ...columns,
    ...rows.map(([t, share, data]) => `#   ${(t as string).padEnd(width)}${data === undefined ? share : `${(share as string).padEnd(second)}${data}`}`)];
}

/** The whole output: the chosen form active, the others commented, then the advice. */
export function fitText(r: FitReport, form: FitForm): string {
  const order = [form, ...FIT_FORMS.filter((f) => f !== form)];
  const blocks = order.map((f) => formLines(r, f, f === form));
  return `${[`# idem-sim fit: ${r.what}.`, '# Paste the latency below under service: in a scenario, or write it there with --into SCENARIO.', '#',
    ...blocks.flatMap((b, i) => (i === 0 ? b : ['#', ...b])), '#', ...adviceLines(r)].join('\n')}\n`;
}

/** Unit words for the description of what was read. */
export const unitName = (unit: HistogramUnit): string => (unit === 's' ? 'seconds' : unit === 'ms' ? 'milliseconds' : unit === 'us' ? 'microseconds' : 'nanoseconds');
