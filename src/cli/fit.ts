/**
 * `idem-sim fit`: a service's latency from what its operators already have (a histogram file, a
 * span export, a list or CSV column of durations, a Prometheus server's HTTP API, a /metrics
 * page), printed as YAML to paste under `service:` with how well each form fits and the advice
 * the data give (ingest/fit-text.ts); `--into` writes it into a scenario (ingest/fit-into.ts).
 */
import { existsSync } from 'node:fs';
import type { HistogramUnit } from '../model/latency/histogram-data.js';
import type { FitForm, FitSourceFormat } from '../ingest/fit-forms.js';
import { latencyInto } from '../ingest/fit-into.js';
import { DEFAULT_FIT_TIMEOUT_MS, type FitSettings } from '../ingest/fit-request.js';
import { described, fileObservations, fitSource, inertFitOptions, pageObservations, prometheusError, queryObservations } from '../ingest/fit-sources.js';
import { fitReport, fitText, latencyValue } from '../ingest/fit-text.js';
import type { Observations } from '../ingest/observations.js';
import { InputError } from '../scenario/errors.js';
import { parseScenario } from '../scenario/parse.js';
import { clipped, printable } from '../scenario/printable.js';
import { baseFiles, MAX_DATA_BYTES, MAX_SCENARIO_BYTES, readUserFile } from '../io/files.js';
import { httpGet, parseUrl, redacted, shownUrl } from '../remote/http.js';
import { warn, type Io } from '../io/streams.js';
import type { Given } from './settings/given.js';
import { withOutput } from '../io/output.js';

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

export { fitSettings, type FitSettings } from '../ingest/fit-request.js';

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
    const o = queryObservations(text, fitSource(`--prometheus ${shownUrl(url, base.secrets)}`, redact), s.unit);
    return { o, where: `the query ${clipped(printable(redact(s.source.query)), 120)} at ${shownUrl(base.url, base.secrets)}`, redact };
  }
  if (s.source.kind !== 'metrics') throw new Error('a file is no live source');
  const target = parseUrl(s.source.url, '--metrics');
  const redact = (t: string): string => redacted(t, target.secrets);
  const text = await httpGet(target, { flag: '--metrics', timeoutMs, signal, accept: 'text/plain;version=0.0.4;q=0.9,*/*;q=0.1' });
  return { o: pageObservations(text, fitSource(`--metrics ${shownUrl(target.url, target.secrets)}`, redact), s), where: shownUrl(target.url, target.secrets), redact };
}

export async function fitCommand(s: FitSettings, io: Io, signal: AbortSignal): Promise<number> {
  const inputs = s.source.kind === 'file' ? [s.source.path] : [];
  const form = s.form?.value ?? 'histogram';
  const clientTimeouts = s.clientTimeouts?.value;
  return withOutput(io, s.out, inputs, (out) => withOutput(io, s.into, inputs, async (into) => {
    for (const text of inertFitOptions(s, s.source.kind, s.format?.text)) warn(io, text);
    const { o, where, redact } = s.source.kind === 'file' ? { o: readFileObservations(s.source.path, s, io), where: s.source.path, redact: undefined } : await liveObservations(s, signal);
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

/** A file's observations: read under the data files' rules, then understood (ingest/fit-sources.ts). */
function readFileObservations(path: string, s: FitSettings, io: Io): Observations {
  const text = readUserFile(path, 'the latency data file', '', undefined, 'the current directory', MAX_DATA_BYTES);
  return fileObservations(path, text, s, (message) => warn(io, message));
}

/** The text of the scenario at `path` with `value` as its service.latency (ingest/fit-into.ts), the scenario read as one before and after. */
export function writeInto(path: string, value: Readonly<Record<string, unknown>>): string {
  const fix = `--into writes the latency into a scenario that exists: make it first (a copy of one of yours, or a file of one line such as actions: 10000), or leave --into out to print the latency to paste.`;
  if (!existsSync(path)) throw new InputError({ source: `--into ${path}` }, '', `the scenario file ${path} does not exist`, fix);
  const text = readUserFile(path, 'the scenario file', '', { source: `--into ${path}` }, 'the current directory', MAX_SCENARIO_BYTES);
  parseScenario(text, path, [], baseFiles(path));
  const next = latencyInto(text, path, value);
  try {
    parseScenario(next, path, [], baseFiles(path));
  } catch (e) {
    // The value came from the data: a scenario it breaks is a bug of fit, said as one.
    if (e instanceof InputError) throw new Error(`fit --into made a scenario idem-sim refuses: ${e.message}`);
    throw e;
  }
  return next;
}
