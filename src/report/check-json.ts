/**
 * `check --json`: every expectation with its metric, threshold, measured estimate, 95% interval
 * and verdict, per scenario; the invalid files as `errors`; and, as every JSON report, the tool,
 * version, seed and the command that replays it. Fields are described in docs/ci-gate.md.
 */
import { isFlagPath } from '../results/saturation.js';
import { contractVersion } from '../model/capacity.js';
import type { Verdict } from '../scenario/expect.js';
import { roundNoise } from './json.js';
import type { CheckedScenario, CheckReport, RunInfo } from './types.js';

/** The document's format: raised when a field changes meaning or goes away. */
export const CHECK_JSON_FORMAT = 1;

/** `pass` every expectation passed, `fail` one did (exit 1), `error` a file was invalid (exit 2). */
export type CheckResult = 'pass' | 'fail' | 'error';

export function checkResult(report: CheckReport): CheckResult {
  if (report.errors.length > 0) return 'error';
  return report.checked.every((c) => c.verdicts.every((v) => v.pass)) ? 'pass' : 'fail';
}

function expectation(v: Verdict) {
  const e = v.expectation;
  // A flag (stable, recovered.INCIDENT: results/saturation.ts) is checked as 1 or 0 but said as true or false.
  const flag = isFlagPath(e.metric);
  return {
    metric: e.metric,
    expected: e.text,
    operator: e.op,
    /** In the metric's unit (ms for latencies), as time_unit says. */
    threshold: flag ? e.threshold === 1 : e.threshold,
    confidence: e.confidence,
    estimate: flag && v.measured.value !== null ? v.measured.value === 1 : v.measured.value,
    ci95: v.measured.ci95 ?? null,
    // The interval a `confidence: ci95` expectation had to hold over (zero counts: the rule of three).
    ...(v.interval ? { checked_interval: v.interval } : {}),
    pass: v.pass,
    source: e.origin.source,
    ...(e.origin.line !== undefined ? { line: e.origin.line } : {}),
  };
}

function scenario(c: CheckedScenario) {
  return { name: c.name, file: c.file, seed: c.seed, actions: c.actions, pass: c.verdicts.every((v) => v.pass), warnings: c.warnings.map((w) => w.text), expectations: c.verdicts.map(expectation) };
}

/** `seed`: --seed, or the one seed every scenario ran with; null when their files gave different ones (each scenario has its own). */
export function renderCheckJson(report: CheckReport, info: RunInfo, givenSeed: string | undefined): string {
  const seeds = [...new Set(report.checked.map((c) => c.seed))];
  const verdicts = report.checked.flatMap((c) => c.verdicts);
  const doc = {
    tool: 'idem-sim',
    version: info.version,
    check_format: CHECK_JSON_FORMAT,
    model: contractVersion(report.checked.some((c) => c.coupled || c.triggered === true)),
    time_unit: 'ms',
    seed: givenSeed ?? (seeds.length === 1 ? seeds[0] : null),
    replay: info.replay,
    result: checkResult(report),
    summary: { expectations: verdicts.length, failed: verdicts.filter((v) => !v.pass).length, scenarios: report.checked.length, invalid: report.errors.length, skipped: report.skipped.length },
    scenarios: report.checked.map(scenario),
    errors: report.errors,
    skipped: report.skipped,
  };
  return `${JSON.stringify(doc, roundNoise, 2)}\n`;
}
