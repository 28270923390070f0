/**
 * `idem-sim alerts` in-process (docs/prometheus-rules.md): the rule group and the promtool test
 * file byte for byte on a small series, the compensations (`for:` one bucket shorter, the count
 * per bucket), hostile names, and the options' errors. promtool itself runs them in
 * test/alerts.services.test.ts.
 */
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { alertsSettings, labelOption, metricOption, type AlertsOptions } from '../src/cli/alerts.js';
import { program } from '../src/cli/main.js';
import { NUM_SERIES, SER, type SeriesCounts } from '../src/model/series.js';
import type { WrittenScenario } from '../src/model/types.js';
import { ALERT_FORMATS } from '../src/report/alert-formats.js';
import { prometheusAlerts, promDuration, renderRuleGroup, templateLiteral, yamlString } from '../src/report/prometheus-rules.js';
import { globLiteral, renderPromtoolTest } from '../src/report/promtool-test.js';
import { InputError } from '../src/scenario/errors.js';
import { optionsOf } from './command-line.js';

type Alert = WrittenScenario['alerts'][number];
const MINUTE = 60_000;
const NAMING = { names: {}, labels: [] };

/** A series of 1-minute buckets whose conflicts_409 counts are `counts`. */
function conflicts(counts: readonly number[], step = MINUTE): SeriesCounts {
  const c = new Float64Array(counts.length * NUM_SERIES);
  counts.forEach((n, b) => { c[b * NUM_SERIES + SER.conflicts_409] = n; });
  return { step, buckets: counts.length, counts: c };
}

const ALERT: Alert = { name: 'conflicts', metric: 'conflicts_409', above: 10, for: 2 * MINUTE, grace: 30 * MINUTE };

describe('the rules: one group evaluated every step', () => {
  it('reads the bucket just ended against the count per bucket, and waits one bucket less', () => {
    const rules = prometheusAlerts([ALERT, { ...ALERT, name: 'fast', for: 0, above: 0.5 }], MINUTE, NAMING, 'slow');
    expect(renderRuleGroup(rules, 'idem-sim slow', MINUTE, '9.9.9')).toBe(`# Prometheus alerting rules written by idem-sim 9.9.9 (docs/prometheus-rules.md): each fires at
# the end of the 1m bucket where the simulated alert fires, as the group is evaluated every 1m.
groups:
  - name: "idem-sim slow"
    interval: 1m
    rules:
      - alert: "conflicts"
        expr: 'sum(increase(idempotency_conflicts_409_total[1m])) > 600'
        for: 1m
        annotations:
          summary: "conflicts_409 above 10/s in 2 consecutive 1m buckets, as simulated by idem-sim (scenario slow)"
      - alert: "fast"
        expr: 'sum(increase(idempotency_conflicts_409_total[1m])) > 30'
        annotations:
          summary: "conflicts_409 above 0.5/s in a 1m bucket, as simulated by idem-sim (scenario slow)"
`);
  });

  it('`for:` is (ceil(for/step) - 1) steps: a part of a bucket counts as a whole one, as the simulation counts it', () => {
    const forOf = (ms: number, step = MINUTE) => prometheusAlerts([{ ...ALERT, for: ms }], step, NAMING, 's')[0]?.for;
    expect([forOf(0), forOf(30_000), forOf(MINUTE), forOf(90_000), forOf(2 * MINUTE), forOf(5 * MINUTE, 30_000)])
      .toEqual([0, 0, 0, MINUTE, MINUTE, 9 * 30_000]);
  });

  it('names counters by the convention or --metric, and sums by the --label matchers', () => {
    const [rule] = prometheusAlerts([ALERT], 30_000, { names: { conflicts_409: 'app_409_total' }, labels: [['tool', 'refund'], ['env', 'prod']] }, 's');
    expect(rule?.expr).toBe('sum by (tool, env) (increase(app_409_total{tool="refund", env="prod"}[30s])) > 300');
  });

  it('writes durations as Prometheus does, in whole units', () => {
    expect([0, 250, 1000, 30_000, 90_000, 3_600_000, 86_400_000 + 1500].map(promDuration)).toEqual(['0s', '250ms', '1s', '30s', '1m30s', '1h', '1d1s500ms']);
  });
});

describe('the promtool test: the simulated series in, the simulated firings expected', () => {
  const from = { scenario: 's', seed: '7', version: '9.9.9', rulesSha256: 'ab12', replay: 'idem-sim alerts s.yaml --seed 7 --format promtool-test --out s.test.yaml' };

  it('samples each bucket at its middle and end, and expects the alert at exactly the bucket ends where it fires', () => {
    // Buckets above 600: 2, 3, 4 (fires at the end of 3, the second in a row: 4 min; clears at 6 min) and 6, 7 (fires at 8 min, still on when the series ends).
    const series = conflicts([0, 601, 700, 650, 10, 900, 800]);
    const rules = prometheusAlerts([ALERT], MINUTE, NAMING, 's');
    const text = renderPromtoolTest('s.rules.yaml', rules, [ALERT], series, from);
    const firing = (t: string) => `      - eval_time: ${t}
        alertname: "conflicts"
        exp_alerts:
          - exp_labels: {}
            exp_annotations: {summary: "conflicts_409 above 10/s in 2 consecutive 1m buckets, as simulated by idem-sim (scenario s)"}`;
    const quiet = (t: string) => `      - eval_time: ${t}
        alertname: "conflicts"
        exp_alerts: []`;
    expect(text).toBe(`# promtool test rules FILE: the rules of "s.rules.yaml" on the series of scenario "s",
# simulated by idem-sim 9.9.9 with seed "7": 7 buckets of 1m (docs/prometheus-rules.md).
# The rule file's SHA-256 when this test was written: ab12 (sha256sum shows whether it has changed since).
# replay: idem-sim alerts s.yaml --seed 7 --format promtool-test --out s.test.yaml
rule_files:
  - "s.rules.yaml"
evaluation_interval: 1m
tests:
  - interval: 30s
    input_series:
      - series: "idempotency_conflicts_409_total"
        values: "0 0 0 300.5 601 951 1301 1626 1951 1956 1961 2411 2861 3261 3661"
    alert_rule_test:
${[quiet('1m'), quiet('2m'), firing('3m'), firing('4m'), quiet('5m'), quiet('6m'), firing('7m')].join('\n')}
`);
  });

  it('names the rule file as promtool globs it: a *, ? or [ of the name matches itself alone', () => {
    const text = renderPromtoolTest('a[1] *?\\b.rules.yaml', prometheusAlerts([ALERT], MINUTE, NAMING, 's'), [ALERT], conflicts([0]), from);
    expect(text).toContain('rule_files:\n  - "a\\\\[1] \\\\*\\\\?\\\\\\\\b.rules.yaml"\n');
    expect(globLiteral('../rules/x.yaml')).toBe('../rules/x.yaml');
  });

  it('a count equal to the limit is not above it, in both', () => {
    const series = conflicts([600, 600, 600]);
    const text = renderPromtoolTest('r.yaml', prometheusAlerts([{ ...ALERT, for: 0 }], MINUTE, NAMING, 's'), [{ ...ALERT, for: 0 }], series, from);
    expect(text).not.toContain('exp_labels');
  });
});

describe('hostile names', () => {
  it('are printable, quoted for YAML, and cannot run a Go template in an annotation', () => {
    const name = 'a{{ .Labels }}"\u001b[31m\u2028b\ud800';
    const [rule] = prometheusAlerts([ALERT], MINUTE, NAMING, name);
    const text = renderRuleGroup(rule ? [rule] : [], `idem-sim ${name}`, MINUTE, '1');
    expect(text).toContain('  - name: "idem-sim a{{ .Labels }}\\"\\\\u001b[31m\\\\u2028b\uFFFD"\n');
    // In YAML's quotes, the action {{ "{{" }} that prints {{.
    expect(text).toContain('(scenario a{{ \\"{{\\" }} .Labels }}\\"\\\\u001b[31m\\\\u2028b\uFFFD)"\n');
    expect(text.split('\n')).toHaveLength(12); // no line break came in with the name
    expect(templateLiteral('{{{')).toBe('{{ "{{" }}{');
    expect(yamlString('it\'s "x"')).toBe('"it\'s \\"x\\""');
  });

  it('label values are escaped in the PromQL selector and the YAML around it', () => {
    const [rule] = prometheusAlerts([ALERT], MINUTE, { names: {}, labels: [['tool', 'it\'s "a\\b"']] }, 's');
    expect(rule?.expr).toBe('sum by (tool) (increase(idempotency_conflicts_409_total{tool="it\'s \\"a\\\\b\\""}[1m])) > 600');
    expect(renderRuleGroup(rule ? [rule] : [], 'g', MINUTE, '1')).toContain(`expr: 'sum by (tool) (increase(idempotency_conflicts_409_total{tool="it''s \\"a\\\\b\\""}[1m])) > 600'`);
  });
});

describe('the options', () => {
  const error = (f: () => unknown) => { try { f(); } catch (e) { return e instanceof InputError ? e.message : `not an InputError: ${String(e)}`; } return 'no error'; };

  it('--metric SERIES=NAME and --label NAME=VALUE, refused with the fix', () => {
    expect(metricOption('dedup_hits=app:replays_total')).toEqual(['dedup_hits', 'app:replays_total']);
    expect(labelOption('tool=a=b')).toEqual(['tool', 'a=b']);
    expect(error(() => metricOption('dedup=x'))).toBe('--metric dedup: "dedup" is not one of the allowed values. Did you mean `dedup_hits`? Use one of: arrivals, attempts, executions, duplicates, conflicts_409, mismatches_422, dedup_hits, timeouts, unknown_outcomes, lost, store_unavailable, shed, expired, budget_denied, breaker_rejected, started, succeeded, throttled, deliveries, dead_lettered.');
    expect(error(() => metricOption('dedup_hits=9lives'))).toBe('--metric dedup_hits=9lives: "9lives" is not a Prometheus metric name. Give a name of letters, digits, _ and : (not beginning with a digit), at most 200 characters, such as --metric dedup_hits=myapp_dedup_hits_total.');
    expect(error(() => labelOption('__name__=x'))).toBe('--label __name__=x: "__name__" is not a label name. Give a name of letters, digits and _ (not beginning with a digit or __), then = and the value, such as --label tool=refund.');
    expect(error(() => labelOption('tool=a\u001bb'))).toBe('--label tool=a\\u001bb: the value of tool is not printable (it holds a control or invisible character). Give a value of at most 200 printable characters, such as --label tool=refund.');
  });

  it('--format is one of the list, said when the command takes it', () => {
    const s = alertsSettings(optionsOf<AlertsOptions>('alerts', ['--format', 'prometeus']));
    expect(error(() => s.output.format?.value)).toBe('--format prometeus: "prometeus" is not one of the allowed values. Did you mean `prometheus`? Use one of: table, prometheus, promtool-test.');
  });

  it('--help names exactly the formats of report/alert-formats.ts', () => {
    const cli: Command = program({ io: { stdout: new PassThrough(), stderr: new PassThrough(), env: {} }, signal: new AbortController().signal, setCode: () => {} });
    const words = cli.commands.find((c) => c.name() === 'alerts')?.options.find((o) => o.long === '--format')?.description ?? '';
    const named = ['table', 'prometheus', 'promtool-test', 'yaml', 'json', 'csv', 'github'].filter((n) => new RegExp(`(?<![-\\w])${n}(?![-\\w])`).test(words));
    expect(named.sort()).toEqual([...ALERT_FORMATS].sort());
  });
});
