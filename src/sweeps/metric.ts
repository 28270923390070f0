/**
 * What a sweep charts and finds (`--metric`, `--find`): a metric of the registry, a saturation
 * reading of a coupled run (`stable`, `backlog_cleared_ms.INCIDENT`, `recovered.INCIDENT`:
 * results/saturation.ts) or an alert's reading (`alerts.NAME.recovery_ms.INCIDENT`:
 * results/alert-paths.ts), each named as `expect:` names it. Pure.
 */
import { COUPLING_KEYS, isCoupled } from '../model/capacity.js';
import { GUARDS, LATER_GUARDS } from '../model/guards.js';
import type { WrittenScenario } from '../model/types.js';
import { alertQuery, isAlertPath, type AlertPath } from '../results/alert-paths.js';
import { metricDef, SWEEP_METRIC_PATHS, type MetricPath } from '../results/metric-registry.js';
import { hasTrigger } from '../results/delivery.js';
import { isSaturationPath, saturationQuery, type SaturationPath } from '../results/saturation.js';
import { InputError, type Origin } from '../scenario/errors.js';
import { clipped } from '../scenario/printable.js';
import { didYouMean } from '../scenario/suggest.js';

export type SweepMetric = MetricPath | SaturationPath | AlertPath;

export function isSweepMetric(text: string): text is SweepMetric {
  return (SWEEP_METRIC_PATHS as readonly string[]).includes(text) || isSaturationPath(text) || isAlertPath(text);
}

/** `text` as a reading a sweep can chart (`flag` and `given`, the option's whole text, say where), or the refusal with the nearest name. */
export function sweepMetricOf(flag: string, text: string, given = text): SweepMetric {
  if (isSweepMetric(text)) return text;
  const guess = didYouMean(text, [...SWEEP_METRIC_PATHS, 'stable', 'backlog_cleared_ms.INCIDENT', 'recovered.INCIDENT', 'alerts.NAME.recovery_ms.INCIDENT']);
  throw new InputError({ source: `${flag} ${clipped(given, 120)}` }, '', `"${clipped(text, 80)}" is not a reading a sweep can chart`,
    `${guess ? `Did you mean \`${guess}\`? ` : ''}Use a metric (${SWEEP_METRIC_PATHS.slice(0, 3).join(', ')}, ...: docs/csv.md), stable, backlog_cleared_ms.INCIDENT, recovered.INCIDENT or an alert's reading (alerts.NAME.recovery_ms.INCIDENT, as expect: names them).`);
}

/** Where a refusal points: the scenario file's sweep.metric, or the option. */
export interface MetricSource { origin: Origin; keyPath: string }

/** Whether some point of the sweep may set `key` (the scenario sets it, or a varied key sets it or a key under it). */
const mayHave = (varied: readonly string[], key: string) => varied.some((p) => p === key || p.startsWith(`${key}.`) || key.startsWith(`${p}.`));

/**
 * A reading whose value would be missing at every point is refused, as `expect:` refuses it: a
 * coupled run's reading where no point can be coupled, a trigger's where no point has one, a
 * saturation reading without service.capacity, an alert or incident the scenario does not have.
 */
export function checkSweepMetric(metric: SweepMetric, where: MetricSource, scenario: WrittenScenario, varied: readonly string[]): void {
  const coupled = isCoupled(scenario) || COUPLING_KEYS.some((k) => mayHave(varied, k));
  const capacityOnly = metricDef(metric)?.only === 'capacity' || (isAlertPath(metric) && alertQuery(metric).reading === 'recovery_ms');
  if (capacityOnly && !coupled) {
    throw new InputError(where.origin, where.keyPath, `${metric} is reported only by scenarios with ${COUPLING_KEYS.join(', ')} set (docs/model.md, "Capacity"), and neither this scenario nor the keys the sweep varies set one`,
      `Chart another metric, set one of those keys (for example --set service.capacity.workers=20), or vary one (--vary service.capacity.workers=10..40:4).`);
  }
  const guard = LATER_GUARDS.find((n) => GUARDS[n].metric === metric);
  if (guard !== undefined && scenario.client[guard] === null && !mayHave(varied, GUARDS[guard].key)) {
    throw new InputError(where.origin, where.keyPath, `${metric} is reported only by scenarios with ${GUARDS[guard].key} set (docs/model.md, "Capacity"), and neither this scenario nor the keys the sweep varies set it`,
      `Chart another metric, set it (--set '${GUARDS[guard].key}={}'), or vary it.`);
  }
  if (metricDef(metric)?.only === 'trigger' && !hasTrigger(scenario) && !mayHave(varied, 'trigger')) {
    throw new InputError(where.origin, where.keyPath, `${metric} is reported only by scenarios with a trigger (docs/model.md, "Inbound delivery"), and neither this scenario nor the keys the sweep varies set one`,
      'Chart another metric, or give the scenario a trigger (trigger: {kind: webhook, ack_timeout: 3s}) and vary its keys (--vary trigger.ack_timeout=1s,3s,10s).');
  }
  if (isSaturationPath(metric) && scenario.service.capacity === null && !mayHave(varied, 'service.capacity')) {
    throw new InputError(where.origin, where.keyPath, `${metric} is a reading of the workers' saturation (docs/model.md, "Saturation"), and neither this scenario nor the keys the sweep varies set service.capacity`,
      'Set service.capacity (--set service.capacity.workers=20), or vary it (--vary service.capacity.workers=10..40:4).');
  }
  const incident = isSaturationPath(metric) ? saturationQuery(metric).incident : isAlertPath(metric) ? (alertQuery(metric) as { incident?: string }).incident : undefined;
  if (isAlertPath(metric)) {
    const { alert } = alertQuery(metric);
    if (!scenario.alerts.some((a) => a.name === alert)) {
      const names = scenario.alerts.map((a) => a.name);
      throw new InputError(where.origin, where.keyPath, `${metric} names the alert "${alert}", which the scenario does not have`,
        names.length > 0 ? `Use one of the alerts' names: ${names.join(', ')}.` : 'Add the alert under alerts: (a name, a metric and above), or chart another reading.');
    }
  }
  if (incident !== undefined && !scenario.incidents.some((w) => w.name === incident)) {
    const names = scenario.incidents.map((w) => w.name);
    throw new InputError(where.origin, where.keyPath, `${metric} names the incident "${incident}", which the scenario does not have`,
      names.length > 0 ? `Use one of the incidents' names: ${names.join(', ')}.` : 'Add the incident under incidents: (a name, from and to), or chart another reading.');
  }
}

/** What an alert's reading asked for (`asked`: --metric and --find's) without --series (`seriesStep` undefined) is read on: one-minute buckets. */
export function bucketsNote(seriesStep: number | undefined, asked: readonly SweepMetric[]): string | undefined {
  const alert = seriesStep === undefined ? asked.find((p) => isAlertPath(p)) : undefined;
  return alert === undefined ? undefined
    : `${alert} is judged on 1-minute buckets (an alert's for: counts whole buckets, so times read in steps of about a minute); --series 5s judges it on 5-second buckets, and backlog_cleared_ms.INCIDENT is exact from the workers (docs/sweeps.md, "Recovery").`;
}

/**
 * The warning for --series on a sweep of a scenario with neither alerts nor incidents: a sweep's
 * series make only its alerts' buckets and the quiet time outside incidents (alert baselines), so
 * without either it changes nothing.
 */
export function seriesWithoutAlerts(series: string, file: string): string {
  return `--series ${series} has no effect: ${file} has no alerts: and no incidents:, and a sweep counts series only for its alerts' buckets and the quiet time outside incidents (its tables, CSV and JSON hold no series). Drop --series, or add alerts: to the scenario (docs/time.md).`;
}
