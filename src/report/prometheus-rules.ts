/**
 * A scenario's alerts as Prometheus alerting rules (docs/prometheus-rules.md). The simulated
 * alert (results/alerts.ts) reads fixed buckets of the step Δ: a bucket is above when its count
 * exceeds `above`·Δ, and the alert fires at the end of the bucket that completes ceil(for/Δ)
 * consecutive ones. The rule compensates for Prometheus's two differences: its group is
 * evaluated every Δ and reads `increase(counter[Δ])`, the count of the bucket that has just
 * ended, against the same count per bucket; and its `for:` is one bucket shorter, since an alert
 * is pending from the first evaluation that finds the expression true, at the end of the first
 * bucket above, where the simulated alert has already seen that bucket whole.
 */
import { SERIES_NAMES, type SeriesName } from '../model/series.js';
import type { WrittenScenario } from '../model/types.js';
import { printable } from '../scenario/printable.js';

type Alert = WrittenScenario['alerts'][number];

/** The metric names by convention: `idempotency_` + the series count's name + `_total` (a counter). */
export const conventionalMetric = (series: SeriesName): string => `idempotency_${series}_total`;

/** How the run's series counts are found in Prometheus: each count's counter, and the labels that pick the service's series. */
export interface MetricNaming {
  /** Counters named otherwise than by `conventionalMetric` (--metric SERIES=NAME). */
  readonly names: Readonly<Partial<Record<SeriesName, string>>>;
  /** Label matchers (--label NAME=VALUE), in the order given: the selector's, and the sum's `by`. */
  readonly labels: readonly (readonly [name: string, value: string])[];
}

/** One scenario alert as a Prometheus rule, as typed data; `renderRuleGroup` writes it. */
export interface PrometheusAlert {
  /** The scenario's alert name (letters, digits, _ and -), the rule's `alert:`. */
  readonly name: string;
  readonly series: SeriesName;
  /** The counter it reads. */
  readonly metric: string;
  /** The PromQL expression. */
  readonly expr: string;
  /** The rule's `for:` (ms): (ceil(for/Δ) - 1)·Δ, at least 0. */
  readonly for: number;
  /** The count per window above which the expression is true: `above`·Δ (per second times the step). */
  readonly limit: number;
  /** The labels the alert carries from the expression (the sum's `by`). */
  readonly labels: readonly (readonly [string, string])[];
  /** `annotations.summary`, as plain text (renderRuleGroup guards it from Prometheus's templates). */
  readonly summary: string;
}

/** A scenario's alerts as rules on a series of step `step` (ms). */
export function prometheusAlerts(alerts: readonly Alert[], step: number, naming: MetricNaming, scenarioName: string): PrometheusAlert[] {
  return alerts.map((a) => {
    const metric = naming.names[a.metric] ?? conventionalMetric(a.metric);
    // The simulated alert's own count per bucket (results/alerts.ts, `firings`): the same product, so the same double.
    const limit = (a.above * step) / 1000;
    const buckets = Math.max(1, Math.ceil(a.for / step));
    const selector = `${metric}${naming.labels.length > 0 ? `{${naming.labels.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}}` : ''}`;
    const by = naming.labels.length > 0 ? ` by (${naming.labels.map(([k]) => k).join(', ')}) ` : '';
    return {
      name: a.name, series: a.metric, metric,
      expr: `sum${by}(increase(${selector}[${promDuration(step)}])) > ${promNumber(limit)}`,
      for: (buckets - 1) * step,
      limit,
      labels: naming.labels,
      summary: `${a.metric} above ${promNumber(a.above)}/s in ${buckets === 1 ? 'a' : `${buckets} consecutive`} ${promDuration(step)} bucket${buckets === 1 ? '' : 's'}, as simulated by idem-sim (scenario ${scenarioName})`,
    };
  });
}

/** The series counts the rules read, once each, in SERIES_NAMES's order. */
export function seriesRead(rules: readonly PrometheusAlert[]): { series: SeriesName; metric: string }[] {
  return SERIES_NAMES.filter((s) => rules.some((r) => r.series === s)).map((s) => ({ series: s, metric: (rules.find((r) => r.series === s) as PrometheusAlert).metric }));
}

/**
 * A duration as Prometheus writes one: whole units from days down to milliseconds (90000 is
 * `1m30s`). Prometheus counts whole milliseconds; the command refuses a step that is not.
 */
export function promDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let text = '';
  for (const [size, unit] of [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'm'], [1000, 's'], [1, 'ms']] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) { text += `${n}${unit}`; rest -= n * size; }
  }
  return text;
}

/** A number as PromQL reads it back to the same double: the shortest form that round-trips. */
export const promNumber = (x: number): string => String(x);

/**
 * Text fit for a YAML file: printable (scenario/printable.ts), and each half of a UTF-16 pair
 * found alone (which UTF-8 cannot write) as U+FFFD, as String.prototype.toWellFormed does.
 */
const wellFormed = (text: string): string => printable(text).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** Text as a YAML double-quoted scalar: fit (above), quoted and escaped as JSON, which YAML reads alike. */
export const yamlString = (text: string): string => JSON.stringify(wellFormed(text));

/**
 * Text Prometheus will expand as a Go template (annotations and labels are templates): each
 * `{{` written as the action that prints it, so a scenario's name cannot run a template.
 */
export const templateLiteral = (text: string): string => text.replaceAll('{{', '{{ "{{" }}');

/** The rules as one group, evaluated every step: a rule file for Prometheus's `rule_files`. */
export function renderRuleGroup(rules: readonly PrometheusAlert[], group: string, step: number, version: string): string {
  const lines = [
    `# Prometheus alerting rules written by idem-sim ${version} (docs/prometheus-rules.md): each fires at`,
    `# the end of the ${promDuration(step)} bucket where the simulated alert fires, as the group is evaluated every ${promDuration(step)}.`,
    'groups:',
    `  - name: ${yamlString(group)}`,
    `    interval: ${promDuration(step)}`,
    '    rules:',
  ];
  for (const r of rules) {
    lines.push(
      `      - alert: ${yamlString(r.name)}`,
      `        expr: ${yamlSingle(r.expr)}`,
      ...(r.for > 0 ? [`        for: ${promDuration(r.for)}`] : []),
      '        annotations:',
      `          summary: ${yamlString(templateLiteral(r.summary))}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A YAML single-quoted scalar (an expression reads better without JSON's escaped quotes): `'` doubled. */
const yamlSingle = (text: string): string => `'${wellFormed(text).replaceAll("'", "''")}'`;
