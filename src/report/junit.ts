/**
 * JUnit XML for `idem-sim check --junit`: one testsuite per scenario, one testcase per
 * expectation, carrying what was measured (testcase properties, as pytest's record_property
 * writes them, and the same in words in system-out, which every CI viewer shows); one
 * testsuite with an error case per invalid scenario file, so a CI upload step always finds it.
 */
import { isFlagPath } from '../results/saturation.js';
import type { Verdict } from '../scenario/expect.js';
import { printable } from '../scenario/printable.js';
import { verdictMessage, writtenAt } from './verdict-text.js';
import type { CheckedScenario, CheckError, CheckReport } from './types.js';

// XML 1.0 allows no control character but tab and line ends, not even as a reference: write them out.
export const escape = (s: string): string => printable(s).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);

/** A number as a property's value: 12 significant digits (as in --json), no float noise. */
export const value = (x: number): string => String(Number.isInteger(x) ? x : Number(x.toPrecision(12)));

export function renderJunit(report: CheckReport, version: string): string {
  const { checked, errors } = report;
  const total = checked.reduce((n, c) => n + c.verdicts.length, 0) + errors.length;
  const failures = checked.reduce((n, c) => n + c.verdicts.filter((v) => !v.pass).length, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="idem-sim check" tests="${total}" failures="${failures}" errors="${errors.length}">`,
    ...checked.flatMap((c) => suite(c, version)),
    ...errors.flatMap((e) => errorSuite(e, version)),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function suite(c: CheckedScenario, version: string): string[] {
  const failed = c.verdicts.filter((v) => !v.pass).length;
  return [
    `  <testsuite name="${escape(c.file ?? c.name)}" tests="${c.verdicts.length}" failures="${failed}" errors="0">`,
    '    <properties>',
    `      <property name="seed" value="${escape(c.seed)}"/>`,
    `      <property name="actions" value="${c.actions}"/>`,
    `      <property name="idem-sim" value="${escape(version)}"/>`,
    '    </properties>',
    ...c.verdicts.flatMap((v) => testcase(c.name, v)),
    '  </testsuite>',
  ];
}

/** One expectation: its measured value and interval as properties named after the metric, a failure if it failed. */
function testcase(classname: string, v: Verdict): string[] {
  const e = v.expectation;
  const name = `${e.metric} ${e.text}${v.interval ? ' (whole 95% interval)' : ''}`;
  const interval = v.interval ?? v.measured.ci95;
  const properties = [
    ...(v.measured.value === null ? [] : [[e.metric, isFlagPath(e.metric) ? String(v.measured.value === 1) : value(v.measured.value)]]),
    ...(interval ? [[`${e.metric}.ci95_low`, value(interval[0])], [`${e.metric}.ci95_high`, value(interval[1])]] : []),
  ];
  const message = verdictMessage(v);
  const where = writtenAt(e);
  return [
    `    <testcase classname="${escape(classname)}" name="${escape(name)}">`,
    ...(properties.length > 0 ? ['      <properties>', ...properties.map(([n, x]) => `        <property name="${escape(n as string)}" value="${x}"/>`), '      </properties>'] : []),
    ...(v.pass ? [] : [`      <failure message="${escape(message)}">${escape(`${message} (${where})`)}</failure>`]),
    `      <system-out>${escape(`${message}${v.interval ? ' over the whole interval' : ''}: ${v.pass ? 'pass' : 'FAIL'}`)}</system-out>`,
    '    </testcase>',
  ];
}

/** An invalid scenario file: one error case, its message the error `check` printed. */
function errorSuite(e: CheckError, version: string): string[] {
  return [
    `  <testsuite name="${escape(e.file)}" tests="1" failures="0" errors="1">`,
    '    <properties>',
    `      <property name="idem-sim" value="${escape(version)}"/>`,
    '    </properties>',
    `    <testcase classname="${escape(e.name)}" name="scenario file">`,
    `      <error type="invalid scenario" message="${escape(e.message)}">${escape(e.message)}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ];
}
