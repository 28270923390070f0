/**
 * A `promtool test rules` file (docs/prometheus-rules.md): the exported rules run on the
 * simulated series, expected to fire at every bucket end where the simulated alert fires.
 *
 * Input: each counter the rules read, cumulative, with a sample at every bucket's end (the
 * run's own counts) and one at its middle holding half the bucket's count (its events spread
 * evenly). Prometheus 2 reads a range [t - Δ, t] (closed), which holds the bucket's two ends:
 * `increase` is the bucket's count, with nothing to extrapolate. Prometheus 3 reads (t - Δ, t]
 * (left-open), which holds the middle and the end: half the count, over half the window,
 * extrapolated by exactly 2 to the window's start (the middle is one sampling interval from it,
 * within the 1.1 intervals Prometheus extrapolates over). Both are the bucket's count exactly,
 * as halves of integers are exact doubles.
 *
 * Expected: at each bucket's end t, the alert fires when a simulated firing [start, end) holds t.
 * A firing still on when the series ends closes there in the simulation; here it is still on
 * at the last bucket's end, so the firings are taken from the series with one empty bucket more.
 */
import { firings } from '../results/alerts.js';
import { NUM_SERIES, SER, type SeriesCounts } from '../model/series.js';
import type { WrittenScenario } from '../model/types.js';
import { printable, UNPRINTABLE_CLASS } from '../scenario/printable.js';
import { promDuration, seriesRead, yamlString, type PrometheusAlert } from './prometheus-rules.js';

type Alert = WrittenScenario['alerts'][number];

/** What the test file says of where it came from (comments). */
export interface PromtoolTestSource {
  scenario: string;
  seed: string;
  version: string;
  /** The rule file's SHA-256 (hex) when the test was written, which `sha256sum` compares with it as it is now. */
  rulesSha256: string;
  /** The command line that writes the file again. */
  replay: string;
}

/**
 * A path as a pattern of Go's filepath.Match that matches it alone: promtool globs each of
 * `rule_files`, so a name holding `*`, `?`, `[` or `\` would match other files, or none.
 */
export const globLiteral = (path: string): string => path.replace(/[*?[\\]/g, '\\$&');

const UNPRINTABLE = new RegExp(`[${UNPRINTABLE_CLASS}]`, 'g');

/**
 * A path as a YAML double-quoted scalar that reads back as the path itself, for promtool to open:
 * JSON's escapes (a line break as `\n`), and each other unprintable character as `\uXXXX`, which
 * YAML reads alike. yamlString's printable text would name another file (`\u000a` as six
 * characters), and the test would find none.
 */
export const yamlPath = (path: string): string =>
  JSON.stringify(path).replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Entries of `alert_rule_test` a file holds: one per alert and bucket. */
export const promtoolTestEntries = (alerts: number, series: SeriesCounts): number => alerts * series.buckets;

/**
 * The test file. `rulesFile`: the rule file as the test reads it (relative to the test file, as
 * promtool reads it); `alerts`: the scenario's alerts, in the order of `rules`.
 */
export function renderPromtoolTest(rulesFile: string, rules: readonly PrometheusAlert[], alerts: readonly Alert[], series: SeriesCounts, from: PromtoolTestSource): string {
  const step = promDuration(series.step);
  const padded: SeriesCounts = { ...series, buckets: series.buckets + 1, counts: new Float64Array((series.buckets + 1) * NUM_SERIES) };
  padded.counts.set(series.counts.subarray(0, series.buckets * NUM_SERIES));
  const lines = [
    `# promtool test rules FILE: the rules of ${yamlString(rulesFile)} on the series of scenario ${yamlString(from.scenario)},`,
    `# simulated by idem-sim ${from.version} with seed ${yamlString(from.seed)}: ${series.buckets} buckets of ${step} (docs/prometheus-rules.md).`,
    `# The rule file's SHA-256 when this test was written: ${from.rulesSha256} (sha256sum shows whether it has changed since).`,
    `# replay: ${printable(from.replay)}`,
    'rule_files:',
    `  - ${yamlPath(globLiteral(rulesFile))}`,
    `evaluation_interval: ${step}`,
    'tests:',
    `  - interval: ${promDuration(series.step / 2)}`,
    '    input_series:',
    ...seriesRead(rules).flatMap(({ series: name, metric }) => [
      `      - series: ${yamlString(selector(metric, rules[0]?.labels ?? []))}`,
      `        values: "${cumulativeHalves(series, SER[name]).join(' ')}"`,
    ]),
    '    alert_rule_test:',
    ...rules.flatMap((r, i) => expectations(r, firings(padded, alerts[i] as Alert), series)),
  ];
  return `${lines.join('\n')}\n`;
}

/** A series selector with its labels, as the input's `series:` reads it. */
const selector = (metric: string, labels: readonly (readonly [string, string])[]): string =>
  `${metric}${labels.length > 0 ? `{${labels.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')}}` : ''}`;

/** The counter at 0, then at each bucket's middle and end. */
function cumulativeHalves(series: SeriesCounts, m: number): string[] {
  const values = ['0'];
  let total = 0;
  for (let b = 0; b < series.buckets; b++) {
    const count = series.counts[b * NUM_SERIES + m] as number;
    values.push(String(total + count / 2));
    total += count;
    values.push(String(total));
  }
  return values;
}

/** One entry per bucket end: the alert firing there (by `fired`, its simulated firings in time order), or none. */
function expectations(rule: PrometheusAlert, fired: readonly [number, number][], series: SeriesCounts): string[] {
  const out: string[] = [];
  let k = 0;
  for (let b = 1; b <= series.buckets; b++) {
    const t = b * series.step;
    while (k < fired.length && (fired[k] as [number, number])[1] <= t) k++;
    const on = k < fired.length && (fired[k] as [number, number])[0] <= t;
    out.push(`      - eval_time: ${promDuration(t)}`, `        alertname: ${yamlString(rule.name)}`);
    if (!on) { out.push('        exp_alerts: []'); continue; }
    out.push(
      '        exp_alerts:',
      `          - exp_labels: {${rule.labels.map(([k, v]) => `${k}: ${yamlString(v)}`).join(', ')}}`,
      `            exp_annotations: {summary: ${yamlString(rule.summary)}}`,
    );
  }
  return out;
}
