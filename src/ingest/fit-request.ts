/**
 * What `fit` is asked (cli/fit.ts has its options read): where the data come from (one source:
 * a file, a Prometheus server's query, a /metrics page), how to read them, and what to write;
 * the combinations that make no sense refused. Pure.
 */
import type { HistogramUnit } from '../model/latency/histogram-data.js';
import { InputError } from '../scenario/errors.js';
import type { Taken } from '../scenario/taken.js';
import type { FitForm, FitSourceFormat } from './fit-forms.js';

/** The options as given, each read when taken. */
export interface FitAsked {
  format?: Taken<FitSourceFormat> | undefined;
  metric?: string | undefined;
  unit?: Taken<HistogramUnit> | undefined;
  column?: string | undefined;
  prometheus?: string | undefined;
  query?: string | undefined;
  metrics?: string | undefined;
  timeout?: Taken<number> | undefined;
  clientTimeouts?: Taken<number[]> | undefined;
  form?: Taken<FitForm> | undefined;
  into?: string | undefined;
  out?: string | undefined;
}

/** What `fit` is asked: where the data come from, how to read them, what to write. */
export interface FitSettings {
  readonly source: { readonly kind: 'file'; readonly path: string } | { readonly kind: 'prometheus'; readonly url: string; readonly query: string } | { readonly kind: 'metrics'; readonly url: string };
  readonly format: Taken<FitSourceFormat> | undefined;
  readonly metric: string | undefined;
  readonly unit: Taken<HistogramUnit> | undefined;
  readonly column: string | undefined;
  readonly timeout: Taken<number> | undefined;
  readonly clientTimeouts: Taken<number[]> | undefined;
  readonly form: Taken<FitForm> | undefined;
  readonly into: string | undefined;
  readonly out: string | undefined;
}

/** The time a live source has for the whole request without --timeout. */
export const DEFAULT_FIT_TIMEOUT_MS = 10_000;

/** The settings, with the combinations that make no sense refused. */
export function fitSettings(file: string | undefined, opts: FitAsked): FitSettings {
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
