/**
 * The reporters of `run` (and of `merge` for a run's parts): a run's results in, the report's
 * text out. A new format is a module with a render function and one entry here; `--format`'s
 * choices are this table's keys.
 */
import type { ChalkInstance } from 'chalk';
import { renderJson } from './json.js';
import { renderSeriesCsv } from './series-csv.js';
import { renderTable } from './table.js';
import type { RunInfo, ScenarioRun } from './types.js';

export interface RunReporter {
  /** The options that ask for this format, as the replay line writes them (none for the default). */
  readonly options: readonly string[];
  /**
   * The whole report; `style` colours a terminal's text and `width` is the widest line it may
   * draw (undefined: no limit; cli/terminal.ts). A reporter for files ignores both.
   */
  render(runs: readonly ScenarioRun[], info: RunInfo, style: ChalkInstance, width?: number): string;
}

/** The table as given, its keys kept as the type of the formats and each value typed as a reporter. */
const registry = <F extends string>(reporters: Record<F, RunReporter>) => reporters;

export const RUN_REPORTERS = registry({
  table: { options: [], render: renderTable },
  json: { options: ['--json'], render: renderJson },
  csv: { options: ['--format', 'csv'], render: renderSeriesCsv },
});

export type RunFormat = keyof typeof RUN_REPORTERS;

/** The formats, default first. */
export const RUN_FORMATS = Object.keys(RUN_REPORTERS) as RunFormat[];
