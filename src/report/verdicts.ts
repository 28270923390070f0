/** The pass/fail table of `idem-sim check`. */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import { printable } from '../scenario/printable.js';
import { describeReading, num } from './format.js';
import type { CheckReport } from './types.js';

/** One expectation as the tables show it: its cells as text, and whether it passed. */
export interface VerdictRow {
  scenario: string;
  metric: string;
  expected: string;
  measured: string;
  pass: boolean;
}

export const VERDICT_HEAD = ['scenario', 'metric', 'expected', 'measured', 'result'] as const;

/** Every expectation of the report, scenario by scenario (the terminal's table and the step summary's). */
export function verdictRows(report: CheckReport): VerdictRow[] {
  return report.checked.flatMap((c) => c.verdicts.map((v) => {
    const e = v.expectation;
    const zero = v.interval && v.measured.value === 0 && v.interval[1] > 0 ? ` (95% ≤ ${num(v.interval[1])})` : '';
    return { scenario: c.name, metric: e.metric, expected: `${e.text}${v.interval ? ' (whole CI)' : ''}`, measured: describeReading(v.measured, e.metric) + zero, pass: v.pass };
  }));
}

/** The lines under the table: how many expectations failed, and which files could not be checked (plain text). */
export function verdictTally(report: CheckReport): { expectations?: { failed: number; total: number; text: string }; invalid?: string } {
  const { checked, errors } = report;
  const verdicts = checked.flatMap((c) => c.verdicts);
  const failed = verdicts.filter((v) => !v.pass).length;
  const one = errors.length === 1;
  return {
    ...(verdicts.length > 0 ? { expectations: { failed, total: verdicts.length, text: failed === 0 ? `all ${verdicts.length} expectations pass` : `${failed} of ${verdicts.length} expectations fail` } } : {}),
    ...(errors.length > 0 ? { invalid: `${one ? '1 scenario file is' : `${errors.length} scenario files are`} invalid, not checked (${one ? 'its error is' : 'their errors are'} on standard error): ${errors.map((e) => printable(e.file)).join(', ')}` } : {}),
  };
}

export function renderVerdicts(report: CheckReport, chalk: ChalkInstance, footer: string): string {
  const table = new Table({
    head: VERDICT_HEAD.map((h) => chalk.bold(h)),
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const r of verdictRows(report)) table.push([r.scenario, r.metric, r.expected, { hAlign: 'right', content: r.measured }, r.pass ? chalk.green('pass') : chalk.red.bold('FAIL')]);
  const tally = verdictTally(report);
  const lines = report.checked.length > 0 ? [table.toString()] : [];
  if (tally.expectations) lines.push(tally.expectations.failed === 0 ? chalk.green(tally.expectations.text) : chalk.red(tally.expectations.text));
  if (tally.invalid) lines.push(chalk.red.bold(tally.invalid));
  return `${lines.join('\n')}\n${chalk.dim(footer)}\n`;
}
