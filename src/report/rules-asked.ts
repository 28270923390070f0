/**
 * What `idem-sim alerts` is asked of its rules (docs/prometheus-rules.md): the step they are read
 * and evaluated at, the counters' names and the labels that pick the service's series, the
 * options a format leaves unused, and a scenario with no alerts refused. Pure.
 */
import type { SeriesName } from '../model/series.js';
import type { WrittenScenario } from '../model/types.js';
import { ALERT_STEP_MS } from '../results/alerts.js';
import { InputError } from '../scenario/errors.js';
import type { Taken } from '../scenario/taken.js';
import { simulates, type AlertFormat } from './alert-formats.js';
import type { MetricNaming } from './prometheus-rules.js';

/** The series' step: --series, else the minute alerts are judged on; whole and even milliseconds (a sample at each bucket's middle). */
export function ruleStep(series: Taken<number> | undefined): number {
  const step = series?.value ?? ALERT_STEP_MS;
  if (!Number.isInteger(step / 2)) {
    throw new InputError({ source: `--series ${series?.text ?? ''}` }, '', 'is not an even number of milliseconds: Prometheus counts time in whole milliseconds, and the test file samples each bucket at its middle',
      'Give --series a step such as 10s, 30s or 1m.');
  }
  return step;
}

/** The counters' names (--metric SERIES=NAME) and the labels (--label NAME=VALUE, in the order given), each name once. */
export function metricNaming(metric: readonly Taken<readonly [SeriesName, string]>[], label: readonly Taken<readonly [string, string]>[]): MetricNaming {
  const names: Partial<Record<SeriesName, string>> = {};
  for (const [series, name] of oncePerName(metric, '--metric', 'the series')) names[series] = name;
  return { names, labels: oncePerName(label, '--label', 'the label') };
}

/** The pairs given, each name once: a name given twice (the first would be lost) is refused, naming both. */
function oncePerName<K extends string, V>(given: readonly Taken<readonly [K, V]>[], option: string, what: string): [K, V][] {
  const seen = new Map<K, Taken<unknown>>();
  for (const g of given) {
    const name = g.value[0];
    const before = seen.get(name);
    if (before) throw new InputError({ source: `${option} ${g.text}` }, '', `names ${what} ${name} again (after ${option} ${before.text}), and only one can hold`, `Give ${option} once for ${what} ${name}.`);
    seen.set(name, g);
  }
  return given.map((g) => [g.value[0], g.value[1]]);
}

/** Options that do nothing unless the format is the test file (which alone simulates, and alone reads the rule file), as warnings. */
export function unusedAlertOptions(format: AlertFormat, given: { seed: boolean; threads: boolean; rules: boolean }): string[] {
  if (simulates(format)) return [];
  return [
    ...(['--seed', '--threads'] as const).filter((o) => given[o === '--seed' ? 'seed' : 'threads'])
      .map((option) => `${option} has no effect with --format ${format}, which does not simulate: only --format promtool-test runs the scenario.`),
    ...(given.rules ? [`--rules has no effect with --format ${format}: it names the rule file a test reads (--format promtool-test).`] : []),
  ];
}

/** A scenario (the file `file`) with no alerts: nothing to export. */
export function refuseNoAlerts(file: string, scenario: WrittenScenario): void {
  if (scenario.alerts.length === 0) {
    throw new InputError({ source: file }, 'alerts', 'has no alerts to export',
      'Add an alerts: list, such as alerts: [{name: conflicts, metric: conflicts_409, above: 10, for: 2m}] (docs/time.md).');
  }
}
