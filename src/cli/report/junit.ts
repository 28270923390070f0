/** JUnit XML for `idem-sim check --junit`: one testsuite per scenario, one testcase per expectation. */
import { printable } from '../../scenario/printable.js';
import { describeReading } from './format.js';
import type { CheckedScenario } from './types.js';

// XML 1.0 allows no control character but tab and line ends, not even as a reference: write them out.
const escape = (s: string) => printable(s).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);

export function renderJunit(checked: readonly CheckedScenario[], version: string): string {
  const total = checked.reduce((n, c) => n + c.verdicts.length, 0);
  const failures = checked.reduce((n, c) => n + c.verdicts.filter((v) => !v.pass).length, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="idem-sim check" tests="${total}" failures="${failures}">`,
  ];
  for (const c of checked) {
    const failed = c.verdicts.filter((v) => !v.pass).length;
    lines.push(`  <testsuite name="${escape(c.file ?? c.name)}" tests="${c.verdicts.length}" failures="${failed}">`);
    lines.push('    <properties>');
    lines.push(`      <property name="seed" value="${escape(c.seed)}"/>`);
    lines.push(`      <property name="idem-sim" value="${escape(version)}"/>`);
    lines.push('    </properties>');
    for (const v of c.verdicts) {
      const e = v.expectation;
      const name = `${e.metric} ${e.text}${v.interval ? ' (whole 95% interval)' : ''}`;
      const open = `    <testcase classname="${escape(c.name)}" name="${escape(name)}"`;
      if (v.pass) {
        lines.push(`${open}/>`);
      } else {
        const message = `measured ${describeReading(v.measured, e.metric)}, expected ${e.text}`;
        lines.push(`${open}>`);
        lines.push(`      <failure message="${escape(message)}">${escape(`${message} (${e.origin.source}${e.origin.line ? `:${e.origin.line}` : ''})`)}</failure>`);
        lines.push('    </testcase>');
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
