/**
 * `reconcile --expect ... --junit FILE`: JUnit XML as `check --junit` writes it (junit.ts), for
 * the readings of one source: a testsuite named after the source, a testcase per expectation
 * (its tool as the class), the value measured and its interval as properties named after the
 * reading, a failure when it failed; and when the command ends in an error (a malformed
 * expectation, a query that fails), a testsuite with one error case, so that a CI upload step
 * always finds the file. And `--format json`'s verdicts: the readings' document with `result`
 * and `expectations` added.
 */
import type { GateVerdict } from '../reconcile/gate.js';
import type { Reconciliation } from '../reconcile/readings.js';
import { escape, value } from './junit.js';
import { roundNoise } from './json.js';
import { expectationText, gateMessage, toolOf } from './reconcile-gate.js';

const property = (name: string, x: string): string => `<property name="${escape(name)}" value="${escape(x)}"/>`;

const head = (tests: number, failures: number, errors: number): string[] => [
  '<?xml version="1.0" encoding="UTF-8"?>',
  `<testsuites name="idem-sim reconcile" tests="${tests}" failures="${failures}" errors="${errors}">`,
];

function testcase(v: GateVerdict): string[] {
  const { metric } = v.expectation;
  const interval = v.interval ?? v.measured.ci95;
  const properties = [
    ...(v.measured.value === null ? [] : [property(metric, value(v.measured.value))]),
    ...(interval ? [property(`${metric}.ci95_low`, value(interval[0])), property(`${metric}.ci95_high`, value(interval[1]))] : []),
  ];
  const message = gateMessage(v);
  const where = `${v.expectation.origin.source}${v.expectation.origin.line !== undefined ? `:${v.expectation.origin.line}` : ''}`;
  return [
    `    <testcase classname="${escape(toolOf(v))}" name="${escape(`${expectationText(v)}${v.interval ? ' (whole 95% interval)' : ''}`)}">`,
    ...(properties.length > 0 ? ['      <properties>', ...properties.map((p) => `        ${p}`), '      </properties>'] : []),
    ...(v.pass ? [] : [`      <failure message="${escape(message)}">${escape(`${message} (${where})`)}</failure>`]),
    `      <system-out>${escape(`${message}: ${v.pass ? 'pass' : 'FAIL'}`)}</system-out>`,
    '    </testcase>',
  ];
}

export function renderGateJunit(r: Reconciliation, verdicts: readonly GateVerdict[], version: string): string {
  const failures = verdicts.filter((v) => !v.pass).length;
  return `${[
    ...head(verdicts.length, failures, 0),
    `  <testsuite name="${escape(r.where)}" tests="${verdicts.length}" failures="${failures}" errors="0">`,
    '    <properties>',
    `      ${property('rows', String(r.rows))}`,
    `      ${property('window_ms', value(r.windowMs))}`,
    ...(r.retentionMs === null ? [] : [`      ${property('retention_ms', value(r.retentionMs))}`]),
    `      ${property('idem-sim', version)}`,
    '    </properties>',
    ...verdicts.flatMap(testcase),
    '  </testsuite>',
    '</testsuites>',
  ].join('\n')}\n`;
}

/** The error that ended the command, as one error case of a testsuite named after the source (the file, or `the query`). */
export function renderGateJunitError(source: string, message: string, version: string): string {
  return `${[
    ...head(1, 0, 1),
    `  <testsuite name="${escape(source)}" tests="1" failures="0" errors="1">`,
    '    <properties>',
    `      ${property('idem-sim', version)}`,
    '    </properties>',
    '    <testcase classname="reconcile" name="the effects and the expectations">',
    `      <error type="bad input" message="${escape(message)}">${escape(message)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
  ].join('\n')}\n`;
}

/** One verdict as `check --json` writes one (check-json.ts), with its tool. */
function expectationJson(v: GateVerdict) {
  const e = v.expectation;
  return {
    tool: e.tool, metric: e.metric, expected: e.text, operator: e.op, threshold: e.threshold, confidence: e.confidence,
    estimate: v.measured.value, ci95: v.measured.ci95 ?? null,
    ...(v.interval ? { checked_interval: v.interval } : {}), ...(v.missing !== undefined ? { missing: v.missing } : {}),
    pass: v.pass, source: e.origin.source, ...(e.origin.line !== undefined ? { line: e.origin.line } : {}),
  };
}

/** The readings' JSON (reconcile-json.ts) with `result` (pass or fail) and each expectation's verdict added. */
export function withGateJson(readingsJson: string, verdicts: readonly GateVerdict[]): string {
  const doc = JSON.parse(readingsJson) as Record<string, unknown>;
  const result = verdicts.every((v) => v.pass) ? 'pass' : 'fail';
  return `${JSON.stringify({ ...doc, result, expectations: verdicts.map(expectationJson) }, roundNoise, 2)}\n`;
}
