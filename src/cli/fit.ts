/**
 * `idem-sim fit`: a service's latency from what its operators already have (a histogram file, a
 * span export, a list or CSV column of durations, a Prometheus server's HTTP API, a /metrics
 * page), printed as YAML to paste under `service:` with how well each form fits and the advice
 * the data give (ingest/fit-text.ts); `--into` writes it into a scenario (fit-into.ts).
 */
import { UNIT_MS, type HistogramUnit } from '../model/latency/histogram-data.js';
import { csvColumn, durationList } from '../ingest/durations.js';
import type { FitForm, FitSourceFormat } from '../ingest/fit-forms.js';
import { fitReport, fitText, latencyValue, unitName } from '../ingest/fit-text.js';
import { histogramOfText } from '../ingest/histogram-file.js';
import { countOf, type Observations } from '../ingest/observations.js';
import { otlpDocuments } from '../ingest/otlp-json.js';
import { holdsSpans, spanDurations } from '../ingest/otlp-spans.js';
import { queryHistogram } from '../ingest/prometheus-api.js';
import { labelsText, parseSelector } from '../ingest/selector.js';
import { checkedValues, type Source } from '../ingest/source.js';
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';
import { MAX_DATA_BYTES, readUserFile } from './files.js';
import { httpGet, parseUrl, redacted, shownUrl } from './fit-http.js';
import { writeInto } from './fit-into.js';
import { warn, type Io } from './io.js';
import type { Given } from './settings/given.js';
import { withOutput } from './shared/output.js';

/** `fit`'s command line as commander parsed it (fit-declare.ts declares it). */
export interface FitOptions {
  format?: Given<FitSourceFormat>;
  metric?: string;
  unit?: Given<HistogramUnit>;
  column?: string;
  prometheus?: string;
  query?: string;
  metrics?: string;
  timeout?: Given<number>;
  clientTimeouts?: Given<number[]>;
  form?: Given<FitForm>;
  into?: string;
  out?: string;
}

/** What `fit` is asked: where the data come from, how to read them, what to write. */
export interface FitSettings {
  readonly source: { readonly kind: 'file'; readonly path: string } | { readonly kind: 'prometheus'; readonly url: string; readonly query: string } | { readonly kind: 'metrics'; readonly url: string };
  readonly format: Given<FitSourceFormat> | undefined;
  readonly metric: string | undefined;
  readonly unit: Given<HistogramUnit> | undefined;
  readonly column: string | undefined;
  readonly timeout: Given<number> | undefined;
  readonly clientTimeouts: Given<number[]> | undefined;
  readonly form: Given<FitForm> | undefined;
  readonly into: string | undefined;
  readonly out: string | undefined;
}

const DEFAULT_FIT_TIMEOUT_MS = 10_000;

/** The settings, with the combinations that make no sense refused. */
export function fitSettings(file: string | undefined, opts: FitOptions): FitSettings {
  const given = [file !== undefined, opts.prometheus !== undefined, opts.metrics !== undefined].filter(Boolean).length;
  const where = { source: 'fit' };
  const SOURCES = 'Give one source: a file (idem-sim fit latency.prom), --prometheus URL --query QUERY, or --metrics URL.';
  if (given !== 1) throw new InputError(where, '', given === 0 ? 'needs a source of latencies' : 'reads one source at a time', SOURCES);
  if ((opts.prometheus === undefined) !== (opts.query === undefined)) {
    throw new InputError({ source: opts.query === undefined ? '--prometheus' : '--query' }, '', opts.query === undefined ? 'needs --query' : 'is for --prometheus',
      'Give both: --prometheus http://127.0.0.1:9090 --query \'sum by (le) (increase(http_request_duration_seconds_bucket[1d]))\'.');
  }
  if (file === undefined && (opts.format !== undefined || opts.column !== undefined)) {
    throw new InputError({ source: opts.format !== undefined ? '--format' : '--column' }, '', 'is for a file', 'A URL\'s answer has its own format: give --format and --column only with a file.');
  }
  const source = file !== undefined ? { kind: 'file' as const, path: file }
    : opts.prometheus !== undefined ? { kind: 'prometheus' as const, url: opts.prometheus, query: opts.query as string } : { kind: 'metrics' as const, url: opts.metrics as string };
  return {
    source, format: opts.format, metric: opts.metric, unit: opts.unit, column: opts.column, timeout: opts.timeout,
    clientTimeouts: opts.clientTimeouts, form: opts.form, into: opts.into, out: opts.out,
  };
}

const own = (source: string, redact?: (text: string) => string): Source => ({ source, keyPath: '', showNames: true, how: (k) => `with --${k}`, ...(redact ? { redact } : {}) });

/** What was read, for the output's first line: the series' name and labels as `redact` shows them (an answer over HTTP may quote the credentials sent). */
function described(o: Observations, where: string, redact: (text: string) => string = (t) => t): string {
  const n = countOf(o).toLocaleString('en-US', { maximumFractionDigits: 2 });
  if (o.kind === 'durations') return clipped(printable(`${n} ${o.name} in ${where}`), 300);
  const name = redact(`${o.found.name}${o.found.labels.size > 0 ? labelsText(o.found.labels) : ''}`);
  return clipped(printable(`${n} observations of ${name || 'the histogram'} from ${where} (le in ${unitName(o.found.unit)}: ${o.found.unitFrom})`), 300);
}

/** Options given that the source makes inert: warned of, as a scenario's settings with no effect are. */
function noEffect(s: FitSettings, io: Io): void {
  const inert: [string, boolean, string][] = [
    ['--metric', s.source.kind === 'prometheus' && s.metric !== undefined, 'the query chooses the series'],
    ['--timeout', s.source.kind === 'file' && s.timeout !== undefined, 'a file is read, not fetched'],
    ['--column', s.column !== undefined && s.format !== undefined && s.format.text !== 'csv', `--format ${s.format?.text ?? ''} reads no columns`],
  ];
  for (const [flag, given, because] of inert) if (given) warn(io, `${flag} has no effect: ${because}.`);
}

/** A file's observations, in the format given or the one its name and text say. */
function fileObservations(path: string, s: FitSettings, io: Io): Observations {
  const text = readUserFile(path, 'the latency data file', '', undefined, 'the current directory', MAX_DATA_BYTES);
  const src = own(path);
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
    if (unit !== undefined) warn(io, '--unit has no effect: spans carry their start and end in ns.');
    return { kind: 'durations', sorted: spans.sorted, name: `spans named ${spans.name}` };
  }
  const metric = s.metric === undefined ? undefined : parseSelector(s.metric, { source: '--metric' }, '');
  return { kind: 'histogram', ...histogramOfText(text, src, format === 'otlp' ? 'otlp' : 'prometheus', metric, unit) };
}

/** The error of a Prometheus API answer (`{"status": "error", "error": ...}`), if it is one. */
function prometheusError(text: string): string | undefined {
  try {
    const said = (JSON.parse(text) as { error?: unknown }).error;
    return typeof said === 'string' ? said : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The observations of the live sources: a query's vector of buckets, or a /metrics page's
 * histogram; and how a text of the answer is shown (an answer may quote the credentials the URL
 * sent: its names and labels are redacted wherever a message or the output shows them).
 */
async function liveObservations(s: FitSettings, signal: AbortSignal): Promise<{ o: Observations; where: string; redact: (text: string) => string }> {
  const timeoutMs = s.timeout?.value ?? DEFAULT_FIT_TIMEOUT_MS;
  if (s.source.kind === 'prometheus') {
    const base = parseUrl(s.source.url, '--prometheus');
    const redact = (t: string): string => redacted(t, base.secrets);
    const url = new URL('api/v1/query', base.url.href.endsWith('/') ? base.url : `${base.url.href}/`);
    url.searchParams.set('query', s.source.query);
    const text = await httpGet({ ...base, url }, { flag: '--prometheus', timeoutMs, signal, accept: 'application/json', errorText: prometheusError });
    const src = own(`--prometheus ${shownUrl(url, base.secrets)}`, redact);
    let answer: unknown;
    try { answer = JSON.parse(text); } catch { throw new InputError({ source: src.source }, '', 'did not answer JSON', 'Give the address of a Prometheus server, such as http://127.0.0.1:9090.'); }
    const found = queryHistogram(answer, src, s.unit?.value);
    const o: Observations = { kind: 'histogram', found, values: checkedValues(src, found) };
    return { o, where: `the query ${clipped(printable(redact(s.source.query)), 120)} at ${shownUrl(base.url, base.secrets)}`, redact };
  }
  if (s.source.kind !== 'metrics') throw new Error('a file is no live source');
  const target = parseUrl(s.source.url, '--metrics');
  const redact = (t: string): string => redacted(t, target.secrets);
  const text = await httpGet(target, { flag: '--metrics', timeoutMs, signal, accept: 'text/plain;version=0.0.4;q=0.9,*/*;q=0.1' });
  const metric = s.metric === undefined ? undefined : parseSelector(s.metric, { source: '--metric' }, '');
  const histogram = histogramOfText(text, own(`--metrics ${shownUrl(target.url, target.secrets)}`, redact), 'prometheus', metric, s.unit?.value);
  return { o: { kind: 'histogram', ...histogram }, where: shownUrl(target.url, target.secrets), redact };
}

export async function fitCommand(s: FitSettings, io: Io, signal: AbortSignal): Promise<number> {
  const inputs = s.source.kind === 'file' ? [s.source.path] : [];
  const form = s.form?.value ?? 'histogram';
  const clientTimeouts = s.clientTimeouts?.value;
  return withOutput(io, s.out, inputs, (out) => withOutput(io, s.into, inputs, async (into) => {
    noEffect(s, io);
    const { o, where, redact } = s.source.kind === 'file' ? { o: fileObservations(s.source.path, s, io), where: s.source.path, redact: undefined } : await liveObservations(s, signal);
    const report = fitReport(o, described(o, where, redact), clientTimeouts);
    const value = latencyValue(report, form);
    if ('problem' in value) throw new InputError({ source: `--form ${form}` }, '', `has no value for these data: ${value.problem}`, 'Choose --form histogram, which describes any latency.');
    const text = fitText(report, form);
    if (s.into !== undefined) {
      into.write(writeInto(s.into, value));
      io.stderr.write(`idem-sim: fit: wrote service.latency (the ${form} form) into ${printable(s.into)}.\n`);
    }
    out.write(text);
    return 0;
  }, '--into'));
}
