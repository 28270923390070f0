/**
 * `idem-sim alerts` through the real binary (docs/prometheus-rules.md): the table, the rule file,
 * the test file's expected firings against the firings `run --json` reports, the examples of its
 * --help, and its refusals (exit 2, one paragraph, no file left).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, ROOT } from './helpers.js';

const SLOWDOWN = join(ROOT, 'scenarios/incident-slowdown.yaml');
const MINUTE = 60_000;

describe('idem-sim alerts', () => {
  it('prints each alert as simulated and as its rule, by default', () => {
    const r = cli(['alerts', SLOWDOWN]);
    expect(r).toMatchObject({ status: 0, stderr: '' });
    expect(r.stdout).toBe(`┌───────────┬────────────────────────────────┬──────────────────────────────────────────────────────────┬──────┐
│ alert     │ simulated, on 1 min buckets    │ Prometheus rule, evaluated every 1m                      │ for: │
├───────────┼────────────────────────────────┼──────────────────────────────────────────────────────────┼──────┤
│ conflicts │ conflicts_409 > 10/s for 2 min │ sum(increase(idempotency_conflicts_409_total[1m])) > 600 │ 1m   │
└───────────┴────────────────────────────────┴──────────────────────────────────────────────────────────┴──────┘
A rule reads the count of the 1m just ended (increase) against above × 1m, and waits one bucket less (for:)
than the simulated alert, which sees its first bucket whole before Prometheus finds it above (docs/prometheus-rules.md).
The rules for Prometheus: --format prometheus --out FILE; a test of them on the simulated series, the rules it reads
written beside it: --format promtool-test --out FILE.
`);
  });

  it('the test file expects the alert at exactly the bucket ends within the firings run --json reports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-alerts-'));
    const out = join(dir, 'test.yaml');
    expect(cli(['alerts', SLOWDOWN, '--format', 'promtool-test', '--seed', '3', '--out', out])).toMatchObject({ status: 0, stdout: '',
      stderr: `idem-sim: wrote the rules the test reads beside it, to ${join(dir, 'test.rules.yaml')}; promtool test rules ${out} runs them (--rules FILE tests a rule file you keep instead)\n` });
    expect(readFileSync(join(dir, 'test.rules.yaml'), 'utf8')).toBe(cli(['alerts', SLOWDOWN, '--format', 'prometheus']).stdout);
    const run = JSON.parse(cli(['run', SLOWDOWN, '--seed', '3', '--json']).stdout) as { results: { alerts: { firings: [number, number][] }[] }[] };
    const firings = run.results[0]?.alerts[0]?.firings ?? [];
    expect(firings.length).toBeGreaterThan(0);
    const minutes = (t: string) => Number(t.replace(/m$/, ''));
    const text = readFileSync(out, 'utf8');
    const evals = [...text.matchAll(/- eval_time: (\d+)m\n {8}alertname: "conflicts"\n {8}exp_alerts:( \[\])?\n/g)];
    expect(evals.map((m) => minutes(m[1] as string))).toEqual(Array.from({ length: evals.length }, (_, k) => k + 1)); // every bucket end
    const firing = evals.filter((m) => m[2] === undefined).map((m) => minutes(m[1] as string) * MINUTE);
    expect(firing).toEqual(firings.flatMap(([start, end]) => Array.from({ length: (end - start) / MINUTE }, (_, k) => start + k * MINUTE)));
    expect(text).toContain('# replay: idem-sim alerts');
    expect(text).toContain(`--seed 3 --format promtool-test --out ${out}\n`);
    expect(text).toContain('\nrule_files:\n  - "test.rules.yaml"\n');
  });

  it('writes the rule file, and warns of settings that do nothing without a simulation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-alerts-'));
    const out = join(dir, 'rules.yaml');
    const r = cli(['alerts', SLOWDOWN, '--format', 'prometheus', '--seed', '5', '--rules', 'x.yaml', '--label', 'tool=refund', '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('idem-sim: warning: --seed has no effect with --format prometheus, which does not simulate: only --format promtool-test runs the scenario.\n'
      + 'idem-sim: warning: --rules has no effect with --format prometheus: it names the rule file a test reads (--format promtool-test).\n');
    expect(readFileSync(out, 'utf8')).toContain(`expr: 'sum by (tool) (increase(idempotency_conflicts_409_total{tool="refund"}[1m])) > 600'\n        for: 1m\n`);
  });

  it("its --help's examples run", () => {
    const cwd = mkdtempSync(join(tmpdir(), 'idem-sim-example-alerts-'));
    const lines = (cli(['alerts', '--help'], { cwd }).stdout.split(/^Examples:$/m)[1] ?? '').split('\n').filter((l) => l.startsWith('  idem-sim ')).map((l) => l.trim());
    expect(lines).toHaveLength(3);
    // The test written with its rules says where they went; the test of a kept rule file says nothing.
    const said = ['', 'idem-sim: wrote the rules the test reads beside it, to incident-slowdown.rules.yaml; promtool test rules incident-slowdown.test.yaml runs them (--rules FILE tests a rule file you keep instead)\n', ''];
    lines.forEach((line, i) => {
      const r = spawnSync('bash', ['-c', `idem-sim() { "${process.execPath}" "${BIN}" "$@"; }\n${line}`], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect({ status: r.status, stderr: r.stderr }, line).toEqual({ status: 0, stderr: said[i] });
    });
    expect(readdirSync(cwd).sort()).toEqual(['incident-slowdown.rules.yaml', 'incident-slowdown.test.yaml', 'kept.test.yaml']);
  });
});

describe('idem-sim alerts refuses, exit 2, one paragraph, no file left', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-alerts-bad-'));
  const refused = (args: string[], message: string | RegExp) => {
    const out = join(dir, 'out.yaml');
    const r = cli(['alerts', ...args, '--out', out]);
    expect({ status: r.status, stdout: r.stdout }).toEqual({ status: 2, stdout: '' });
    if (typeof message === 'string') expect(r.stderr).toBe(`idem-sim: error: ${message}\n`);
    else expect(r.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(dir, 'out.rules.yaml'))).toBe(false); // nor the rules a test reads
  };

  it('a scenario without alerts', () => {
    refused([join(ROOT, 'scenarios/belgavi-refunds.yaml')], `${join(ROOT, 'scenarios/belgavi-refunds.yaml')}, key alerts: has no alerts to export. Add an alerts: list, such as alerts: [{name: conflicts, metric: conflicts_409, above: 10, for: 2m}] (docs/time.md).`);
  });

  it('a step Prometheus cannot write, a bad label, a format it does not have', () => {
    refused([SLOWDOWN, '--series', '1.5ms'], '--series 1.5ms: is not an even number of milliseconds: Prometheus counts time in whole milliseconds, and the test file samples each bucket at its middle. Give --series a step such as 10s, 30s or 1m.');
    refused([SLOWDOWN, '--label', 'tool'], '--label tool: is not NAME=VALUE. Give --label NAME=VALUE, such as --label tool=refund.');
    // The same label or series twice: the first lost silently before.
    refused([SLOWDOWN, '--label', 'tool=a', '--label', 'tool=b'], '--label tool=b: names the label tool again (after --label tool=a), and only one can hold. Give --label once for the label tool.');
    refused([SLOWDOWN, '--metric', 'conflicts_409=a', '--metric', 'conflicts_409=b'], '--metric conflicts_409=b: names the series conflicts_409 again (after --metric conflicts_409=a), and only one can hold. Give --metric once for the series conflicts_409.');
    refused([SLOWDOWN, '--format', 'yaml'], '--format yaml: "yaml" is not one of the allowed values. Use one of: table, prometheus, promtool-test.');
  });

  it('a --rules the test would not find beside it, or that holds other rules, before the run', () => {
    refused([SLOWDOWN, '--format', 'promtool-test', '--rules', 'missing.yaml'], `--rules missing.yaml: promtool reads a test's rule file relative to the test file, so the test would read ${join(dir, 'missing.yaml')}, relative to the test file's directory, and there is no file there. Write them there with this test's options: idem-sim alerts ${SLOWDOWN} --format prometheus --out ${join(dir, 'missing.yaml')}; or leave --rules out, and the command writes the rules beside the test.`);
    writeFileSync(join(dir, 'other.yaml'), cli(['alerts', SLOWDOWN, '--format', 'prometheus', '--series', '30s']).stdout);
    refused([SLOWDOWN, '--format', 'promtool-test', '--rules', 'other.yaml'], new RegExp(`^idem-sim: error: --rules other\\.yaml: ${join(dir, 'other.yaml')} does not hold the rules this command makes for the scenario: its line 5 is not the group's interval: line\\. `));
  });

  it('a test file of more than 100,000 entries, after the run and before writing either file', () => {
    const file = join(dir, 'many.yaml');
    const alerts = Array.from({ length: 30 }, (_, k) => `  - {name: a${k}, metric: attempts, above: 60, for: 0m}`).join('\n');
    writeFileSync(file, `load: {rate_per_s: 5, duration: 1h}\nalerts:\n${alerts}\n`);
    // An hour of 1-second buckets and the drain after it (the run's last calls): 3,601 or a few more.
    refused([file, '--format', 'promtool-test', '--series', '1s'], new RegExp(`^idem-sim: error: ${file}, key alerts: would need 108,[0-9]{3} test entries \\(30 alerts × 3,60[0-9] buckets\\), more than the 100,000 a test file may hold\\. Test fewer alerts at once \\(--set to drop some\\), a shorter load\\.duration, or a longer --series step\\.\n$`));
  });
});
