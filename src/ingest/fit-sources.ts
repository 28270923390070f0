/**
 * What `fit` reads its latencies from, once the shell has the text (cli/fit.ts reads the file,
 * or asks the URL): a file in the format given or the one its name and text say (a histogram,
 * spans, a list or CSV column of durations), a Prometheus query's answer, a /metrics page; what
 * the output's first line says was read; and the options a source makes inert. Pure.
 */
import { UNIT_MS, type HistogramUnit } from '../model/latency/histogram-data.js';
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';
import type { Taken } from '../scenario/taken.js';
import { csvColumn, durationList } from './durations.js';
import type { FitSourceFormat } from './fit-forms.js';
import { unitName } from './fit-text.js';
import { histogramOfText } from './histogram-file.js';
import { countOf, type Observations } from './observations.js';
import { otlpDocuments } from './otlp-json.js';
import { holdsSpans, spanDurations } from './otlp-spans.js';
import { queryHistogram } from './prometheus-api.js';
import { labelsText, parseSelector } from './selector.js';
import { checkedValues, type Source } from './source.js';

/** How `fit` reads the data: the options that choose the series, the format and the units. */
export interface FitReading {
  readonly format: Taken<FitSourceFormat> | undefined;
  readonly metric: string | undefined;
  readonly unit: Taken<HistogramUnit> | undefined;
  readonly column: string | undefined;
}

/** A source given on the command line (a file or a URL, as shown), its texts shown through `redact`. */
export const fitSource = (source: string, redact?: (text: string) => string): Source => ({ source, keyPath: '', showNames: true, how: (k) => `with --${k}`, ...(redact ? { redact } : {}) });

/** What was read, for the output's first line: the series' name and labels as `redact` shows them (an answer over HTTP may quote the credentials sent). */
export function described(o: Observations, where: string, redact: (text: string) => string = (t) => t): string {
  const n = countOf(o).toLocaleString('en-US', { maximumFractionDigits: 2 });
  if (o.kind === 'durations') return clipped(printable(`${n} ${o.name} in ${where}`), 300);
  const name = redact(`${o.found.name}${o.found.labels.size > 0 ? labelsText(o.found.labels) : ''}`);
  return clipped(printable(`${n} observations of ${name || 'the histogram'} from ${where} (le in ${unitName(o.found.unit)}: ${o.found.unitFrom})`), 300);
}

/** Options given that the source makes inert, as warnings, as a scenario's settings with no effect are (`formatText`: --format as given). */
export function inertFitOptions(s: FitReading & { timeout: unknown }, source: 'file' | 'prometheus' | 'metrics', formatText: string | undefined): string[] {
  const inert: [string, boolean, string][] = [
    ['--metric', source === 'prometheus' && s.metric !== undefined, 'the query chooses the series'],
    ['--timeout', source === 'file' && s.timeout !== undefined, 'a file is read, not fetched'],
    ['--column', s.column !== undefined && formatText !== undefined && formatText !== 'csv', `--format ${formatText ?? ''} reads no columns`],
  ];
  return inert.filter(([, given]) => given).map(([flag, , because]) => `${flag} has no effect: ${because}.`);
}

/** A file's observations (its text read), in the format given or the one its name and text say; `warn` says what has no effect. */
export function fileObservations(path: string, text: string, s: FitReading, warn: (message: string) => void): Observations {
  const src = fitSource(path);
  const format = s.format?.value ?? (s.column !== undefined || /\.csv$/i.test(path) ? 'csv'
    : /\.json$/i.test(path) || /^\s*[{[]/.test(text) ? 'otlp' : /_bucket\{/.test(text) ? 'prometheus' : 'durations');
  const unit = s.unit?.value;
  if (format === 'csv') {
    if (s.column === undefined) throw new InputError({ source: path }, '', 'is read as CSV, but no column is named', 'Name the column of durations with --column NAME (in ms, or the unit --unit gives).');
    const { sorted, skipped } = csvColumn(text, src, s.column, UNIT_MS[unit ?? 'ms']);
    return { kind: 'durations', sorted, name: `durations of the column ${s.column}${skipped > 0 ? ` (${skipped} empty cell${skipped === 1 ? '' : 's'} skipped)` : ''}` };
  }
  if (format === 'durations') return { kind: 'durations', sorted: durationList(text, src, UNIT_MS[unit ?? 'ms']), name: `durations (${unitName(unit ?? 'ms')})` };
  if (format === 'otlp' && holdsSpans(otlpDocuments(text, src, 'an OpenTelemetry export'))) {
    const selector = s.metric === undefined ? undefined : parseSelector(s.metric, { source: '--metric' }, '', true);
    const spans = spanDurations(text, src, selector);
    if (unit !== undefined) warn('--unit has no effect: spans carry their start and end in ns.');
    return { kind: 'durations', sorted: spans.sorted, name: `spans named ${spans.name}` };
  }
  const metric = s.metric === undefined ? undefined : parseSelector(s.metric, { source: '--metric' }, '');
  return { kind: 'histogram', ...histogramOfText(text, src, format === 'otlp' ? 'otlp' : 'prometheus', metric, unit) };
}

/** The error of a Prometheus API answer (`{"status": "error", "error": ...}`), if it is one. */
export function prometheusError(text: string): string | undefined {
  try {
    const said = (JSON.parse(text) as { error?: unknown }).error;
    return typeof said === 'string' ? said : undefined;
  } catch {
    return undefined;
  }
}

/** A Prometheus query's answer (`text`, from `src`): its vector of buckets as a histogram. */
export function queryObservations(text: string, src: Source, unit: Taken<HistogramUnit> | undefined): Observations {
  let answer: unknown;
  try { answer = JSON.parse(text); } catch { throw new InputError({ source: src.source }, '', 'did not answer JSON', 'Give the address of a Prometheus server, such as http://127.0.0.1:9090.'); }
  const found = queryHistogram(answer, src, unit?.value);
  return { kind: 'histogram', found, values: checkedValues(src, found) };
}

/** A /metrics page's histogram (`text`, from `src`). */
export function pageObservations(text: string, src: Source, s: Pick<FitReading, 'metric' | 'unit'>): Observations {
  const metric = s.metric === undefined ? undefined : parseSelector(s.metric, { source: '--metric' }, '');
  return { kind: 'histogram', ...histogramOfText(text, src, 'prometheus', metric, s.unit?.value) };
}
