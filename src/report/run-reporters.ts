/**
 * The reporters of `run` (and of `merge` for a run's parts): a run's results in, the report's
 * text out. A new format is a module with a render function, its entry in formats.ts (its
 * name, its words in `--help`) and one here.
 */
import type { ChalkInstance } from 'chalk';
import { renderJson } from './json.js';
import { renderSeriesCsv } from './series-csv.js';
import { renderRunsCsv } from './runs-csv.js';
import { renderTable } from './table.js';
import type { RunInfo, ScenarioRun } from './types.js';
import type { RunFormat } from './formats.js';

export { RUN_FORMATS, type RunFormat } from './formats.js';

export interface RunReporter {
  /** The options that ask for this format, as the replay line writes them (none for the default). */
  readonly options: readonly string[];
  /**
   * The whole report; `style` colours a terminal's text and `width` is the widest line it may
   * draw (undefined: no limit; io/terminal.ts). A reporter for files ignores both.
   */
  render(runs: readonly ScenarioRun[], info: RunInfo, style: ChalkInstance, width?: number): string;
}

/** A reporter for each format of formats.ts (RUN_FORMAT_INFO) and no other, in its order. */
export const RUN_REPORTERS: Readonly<Record<RunFormat, RunReporter>> = {
  table: { options: [], render: renderTable },
  json: { options: ['--json'], render: renderJson },
  // With --series, one row per bucket of each run's series; without, one row per run (and per agent).
  csv: { options: ['--format', 'csv'], render: (runs, info) => (runs.some((r) => r.series) ? renderSeriesCsv(runs, info) : renderRunsCsv(runs, info, info.agents)) },
};
