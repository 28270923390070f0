/**
 * The output formats of `run` and `sweep` (and of `merge`, which reports as they do): what the
 * options ask for, checked against the reporter registries, and a run's report in its format.
 */
import type { ChalkInstance } from 'chalk';
import { InputError } from '../../scenario/errors.js';
import { shellQuote } from '../../scenario/shell-quote.js';
import { oneOf } from '../options.js';
import { RUN_FORMATS, RUN_REPORTERS, type RunFormat } from '../../report/run-reporters.js';
import { SWEEP_FORMATS, type SweepFormat } from '../../report/sweep-reporters.js';
import { formatList, needsSeries } from '../../report/formats.js';
import type { ScenarioRun } from '../../report/types.js';

/** What --json and --format ask of `run`: one of RUN_FORMATS (`--json` is `--format json`). */
export function runFormat(opts: { json?: boolean; format?: string }): RunFormat {
  return opts.json ? 'json' : oneOf('--format', opts.format ?? 'table', RUN_FORMATS) as RunFormat; // oneOf checked it
}

/**
 * Refuses a format that writes the run's series (formats.ts: needsSeries) for a run without one:
 * `run` given no --series, or `merge` given parts written without it.
 */
export function checkSeriesFormat(format: RunFormat, hasSeries: boolean, command: 'run' | 'merge'): void {
  if (hasSeries || !needsSeries(format)) return;
  const others = formatList(RUN_FORMATS.filter((f) => !needsSeries(f)));
  throw command === 'run'
    ? new InputError({ source: `--format ${format}` }, '', 'writes a run\'s series, one row per bucket, but no --series was given',
      `Add --series with the bucket, such as --series 1m (or use --format ${others}).`)
    : new InputError({ source: `--format ${format}` }, '', 'writes a run\'s series, one row per bucket, and these parts were written without --series',
      `Merge them with --format ${others}, or run the shards again with --series STEP.`);
}

/**
 * The report of `runs` in `format`; its replay line is `args` and the options that ask for the
 * format. `width`: the widest line the report may draw (ReportOutput.width), undefined for none.
 */
export function renderRuns(runs: readonly ScenarioRun[], args: readonly string[], format: RunFormat, version: string, style: ChalkInstance, width?: number): string {
  const reporter = RUN_REPORTERS[format];
  const replay = [...args, ...reporter.options].map(shellQuote).join(' ');
  return reporter.render(runs, { version, replay }, style, width);
}

/** What --format, --json and --svg ask of `sweep`: one of SWEEP_FORMATS, or `svg` (the charts as one SVG; see docs/charts.md). */
export function sweepFormat(opts: { format?: string; json?: boolean; svg?: boolean }): SweepFormat {
  const format = opts.json ? 'json' : oneOf('--format', opts.format ?? 'table', SWEEP_FORMATS) as SweepFormat; // oneOf checked it
  if (!opts.svg) return format;
  if (format === 'html' || (opts.format === undefined && !opts.json)) return 'svg';
  throw new InputError({ source: '--svg' }, '', `cannot be combined with ${opts.json ? '--json' : `--format ${format}`}`,
    `Give --svg alone for the charts as one SVG image, or ${opts.json ? '--json' : `--format ${format}`} alone (--format html gives a page with every chart and a table).`);
}
