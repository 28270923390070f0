/**
 * The output formats of `run` (and of `merge`, which reports as it does): a run's report in its
 * format. What the options ask for: settings/output.ts.
 */
import type { ChalkInstance } from 'chalk';
import { shellQuote } from '../../scenario/shell-quote.js';
import { RUN_REPORTERS, type RunFormat } from '../../report/run-reporters.js';
import type { ScenarioRun } from '../../report/types.js';
import type { AgentRun } from '../../report/agent.js';

/**
 * The report of `runs` in `format`; its replay line is `args` and the options that ask for the
 * format. `width`: the widest line the report may draw (ReportOutput.width), undefined for none.
 */
export function renderRuns(runs: readonly ScenarioRun[], args: readonly string[], format: RunFormat, version: string, style: ChalkInstance, width?: number, agents: readonly AgentRun[] = []): string {
  const reporter = RUN_REPORTERS[format];
  const replay = [...args, ...reporter.options].map(shellQuote).join(' ');
  return reporter.render(runs, { version, replay, ...(agents.length > 0 ? { agents } : {}) }, style, width);
}
