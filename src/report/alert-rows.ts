/**
 * The run table's section on alerts (docs/model.md, "Time"): per alert, its firings, its
 * detection delay per incident (and a coupled run's recovery: "Capacity") and its false alarms,
 * for every run that has it.
 */
import type { AlertResult } from '../results/alerts.js';
import { duration, num } from './format.js';
import { falseAlarmText, missingReading, recoveryReading } from './saturation-text.js';
import type { ScenarioRun } from './types.js';

/** A row: its label and each run's cell (undefined: the run has no such alert). */
export type AlertRow = readonly [label: string, cell: (r: ScenarioRun) => string] | readonly [section: string];

const find = (r: ScenarioRun, name: string): AlertResult | undefined => r.alerts?.find((a) => a.name === name);
const missing = '–';

/**
 * A reading per incident of an alert (`none`: the words where it is null, with what the service's
 * saturation adds to them: saturation-text.ts), – where the run has no such alert, incident or reading.
 */
function reading(r: ScenarioRun, readings: Readonly<Record<string, number | null>> | undefined, incident: string, none: string, recovery = false): string {
  if (!readings || !Object.hasOwn(readings, incident)) return missing;
  const d = readings[incident];
  if (d === null || d === undefined) return missingReading(none, r.metrics, r.scenario, incident);
  return recovery ? recoveryReading(d, r.metrics, incident) : duration(d);
}

/** The section's rows, for the alerts of all `runs` in the order they first appear. */
export function alertRows(runs: readonly ScenarioRun[]): AlertRow[] {
  const names = [...new Set(runs.flatMap((r) => (r.alerts ?? []).map((a) => a.name)))];
  if (names.length === 0) return [];
  const rows: AlertRow[] = [['Alerts (on the run\'s series)']];
  for (const name of names) {
    const spec = runs.map((r) => r.scenario.alerts.find((a) => a.name === name)).find((a) => a !== undefined);
    const rule = spec ? ` (${spec.metric} > ${num(spec.above)}/s${spec.for > 0 ? ` for ${duration(spec.for)}` : ''})` : '';
    rows.push([`${name}${rule}: firings`, (r) => { const a = find(r, name); return a ? num(a.firing_count) : missing; }]);
    rows.push(['  first firing, in the run', (r) => {
      const first = find(r, name)?.firings[0];
      return first ? `${duration(first[0])} to ${duration(first[1])}` : missing;
    }]);
    const incidents = [...new Set(runs.flatMap((r) => Object.keys(find(r, name)?.detection_delay_ms ?? {})))];
    const recovery = runs.some((r) => find(r, name)?.recovery_ms);
    for (const incident of incidents) {
      rows.push([`  detection delay after ${incident}`, (r) => reading(r, find(r, name)?.detection_delay_ms, incident, 'not detected')]);
      if (recovery) rows.push([`  recovery after ${incident} ended`, (r) => reading(r, find(r, name)?.recovery_ms, incident, 'no firing', true)]);
    }
    rows.push(['  false alarms', (r) => {
      const a = find(r, name);
      return a ? falseAlarmText(a.false_alarms, a.firings, r.scenario.alerts.find((x) => x.name === name)?.grace ?? 0, r.metrics, r.scenario) : missing;
    }]);
  }
  return rows;
}
