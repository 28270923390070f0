/** Registers `fit` on the program (one entry of main.ts's list); fit.ts and the readers load when it runs. */
import { Option, type Command } from 'commander';
import { FIT_FORMS, FIT_SOURCE_FORMATS, type FitForm, type FitSourceFormat } from '../ingest/fit-forms.js';
import { HISTOGRAM_UNITS, type HistogramUnit } from '../model/latency/histogram-data.js';
import { MAX_DURATION_MS } from '../model/limits.js';
import { DURATION_PATTERN, formatDuration, parseDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { clipped, printable } from '../scenario/printable.js';
import { withChoices } from '../completion/choices.js';
import type { Io } from '../io/streams.js';
import { oneOf } from './options.js';
import { parsedOption } from './settings/given.js';
import type { FitOptions } from './fit.js';

/** The longest --timeout: 10 minutes. */
export const MAX_FIT_TIMEOUT_MS = 600_000;
/** The most client timeouts advice is given on. */
export const MAX_CLIENT_TIMEOUTS = 20;

/** A duration option's text: with its unit, above 0, at most `max` ms. */
export function durationOption(flag: string, text: string, max: number): number {
  const ms = new RegExp(DURATION_PATTERN).test(text) ? parseDuration(text) : NaN;
  if (!(ms > 0 && ms <= max)) {
    throw new InputError({ source: `${flag} ${clipped(printable(text), 40)}` }, '', `is not a duration above 0 and at most ${formatDuration(max)}`, 'Write it with its unit, such as 500ms, 2s or 1m.');
  }
  return ms;
}

/** `--client-timeouts 500ms,1s,2s`: distinct, in order. */
export function clientTimeoutsOption(text: string): number[] {
  const parts = text.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (parts.length === 0 || parts.length > MAX_CLIENT_TIMEOUTS) {
    throw new InputError({ source: '--client-timeouts' }, '', `gives ${parts.length} timeouts`, `Give from 1 to ${MAX_CLIENT_TIMEOUTS}, separated by commas, such as 500ms,1s,2s.`);
  }
  return [...new Set(parts.map((t) => durationOption('--client-timeouts', t, MAX_DURATION_MS)))].sort((a, b) => a - b);
}

const choice = <T extends string>(flags: string, words: string, values: readonly T[]): Option =>
  withChoices(parsedOption(flags, words, (text) => oneOf(flags.split(' ')[0] as string, text, values) as T), () => values);

/** `fit`: a latency from metrics, spans or durations (docs/latency-from-metrics.md). */
export function declareFit(cmd: Command, { io, signal, setCode }: { io: Io; signal: AbortSignal; setCode: (code: number) => void }): void {
  cmd.command('fit')
    .description("a service's latency from its metrics (a Prometheus or OpenTelemetry histogram, spans, durations) as YAML for a scenario, with the timeouts' advice")
    .argument('[file]', 'a Prometheus text exposition, an OTLP/JSON export (metrics or spans), a list of durations, or a CSV file (with --column)')
    .addOption(choice<FitSourceFormat>('--format <format>', `how to read the file: ${FIT_SOURCE_FORMATS.join(', ')} (default: from its name and text)`, FIT_SOURCE_FORMATS))
    .option('--metric <selector>', 'which histogram (in a traces export, which spans): name or name{label="value",...}')
    .addOption(choice<HistogramUnit>('--unit <unit>', `the unit of a histogram's bounds (default: the file's own, else s) or of durations (default ms): ${HISTOGRAM_UNITS.join(', ')}`, HISTOGRAM_UNITS))
    .option('--column <name>', "the CSV file's column of durations, named in its header row")
    .option('--prometheus <url>', 'a Prometheus server to ask through its HTTP API (with --query), such as http://127.0.0.1:9090')
    .option('--query <promql>', "with --prometheus: an instant query of one histogram's buckets by le, such as 'sum by (le) (increase(x_bucket[1d]))'")
    .option('--metrics <url>', 'a /metrics page to read the histogram from, such as http://127.0.0.1:8080/metrics')
    .addOption(parsedOption('--timeout <duration>', 'with --prometheus or --metrics: time for the whole request, such as 30s (default 10s)', (text) => durationOption('--timeout', text, MAX_FIT_TIMEOUT_MS)))
    .addOption(parsedOption('--client-timeouts <list>', 'the client timeouts to give advice on, such as 500ms,1s,2s (default: round values near the p99)', clientTimeoutsOption))
    .addOption(choice<FitForm>('--form <form>', `the form of the latency written: ${FIT_FORMS.join(', ')} (p50 and p99) (default histogram)`, FIT_FORMS))
    .option('--into <scenario>', "write the latency into this scenario as its service.latency, keeping the file's comments and layout")
    .option('--out <file>', 'write the YAML to a file instead of stdout')
    .action(async (file: string | undefined, opts: FitOptions) => {
      const { fitCommand, fitSettings } = await import('./fit.js');
      setCode(await fitCommand(fitSettings(file, opts), io, signal));
    });
}
