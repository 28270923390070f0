/**
 * The output formats of `run` (and of `merge`, which reports as it does): a format that needs a
 * series, and a run's report in its format. What the options ask for: settings/output.ts.
 */
import type { ChalkInstance } from 'chalk';
import { InputError } from '../../scenario/errors.js';
import { shellQuote } from '../../scenario/shell-quote.js';
import { RUN_FORMATS, RUN_REPORTERS, type RunFormat } from '../../report/run-reporters.js';
import { formatList, needsSeries } from '../../report/formats.js';
import type { ScenarioRun } from '../../report/types.js';

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
