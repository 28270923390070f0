/** The pass/fail table of `idem-sim check`. */
import Table from 'cli-table3';
import type { ChalkInstance } from 'chalk';
import { describeReading, num } from './format.js';
import type { CheckedScenario } from './types.js';

export function renderVerdicts(checked: readonly CheckedScenario[], chalk: ChalkInstance, footer: string): string {
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
  const summary = failed === 0
    ? chalk.green(`all ${verdicts.length} expectations pass`)
    : chalk.red(`${failed} of ${verdicts.length} expectations fail`);
  return `${table.toString()}\n${summary}\n${chalk.dim(footer)}\n`;
}
