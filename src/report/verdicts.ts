/** The pass/fail table of `idem-sim check`. */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import { printable } from '../scenario/printable.js';
import { describeReading, num } from './format.js';
import type { CheckReport } from './types.js';

export function renderVerdicts(report: CheckReport, chalk: ChalkInstance, footer: string): string {
  const { checked, errors } = report;
  const table = new Table({
    head: ['scenario', 'metric', 'expected', 'measured', 'result'].map((h) => chalk.bold(h)),
    style: { head: [], border: [] },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const c of checked) {
    for (const v of c.verdicts) {
      const e = v.expectation;
      table.push([c.name, e.metric, `${e.text}${v.interval ? ' (whole CI)' : ''}`,
        { hAlign: 'right', content: describeReading(v.measured, e.metric) + (v.interval && v.measured.value === 0 && v.interval[1] > 0 ? ` (95% ≤ ${num(v.interval[1])})` : '') }, v.pass ? chalk.green('pass') : chalk.red.bold('FAIL')]);
    }
  }
  const verdicts = checked.flatMap((c) => c.verdicts);
  const failed = verdicts.filter((v) => !v.pass).length;
  const lines = checked.length > 0 ? [table.toString()] : [];
  if (verdicts.length > 0) {
    lines.push(failed === 0
      ? chalk.green(`all ${verdicts.length} expectations pass`)
      : chalk.red(`${failed} of ${verdicts.length} expectations fail`));
  }
  if (errors.length > 0) {
    const files = errors.map((e) => printable(e.file)).join(', ');
    const one = errors.length === 1;
    lines.push(chalk.red.bold(`${one ? '1 scenario file is' : `${errors.length} scenario files are`} invalid, not checked (${one ? 'its error is' : 'their errors are'} on standard error): ${files}`));
  }
  return `${lines.join('\n')}\n${chalk.dim(footer)}\n`;
}
