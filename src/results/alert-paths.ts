/**
 * Readings of alerts by dotted path, for `expect:` (docs/model.md, "Time"):
 * `alerts.NAME.false_alarms`, `alerts.NAME.firings` (how many),
 * `alerts.NAME.detection_delay_ms.INCIDENT` (ms; no value when the alert missed the incident) and,
 * for a coupled run ("Capacity"), `alerts.NAME.recovery_ms.INCIDENT` (ms; no value likewise).
 */
import type { AlertSummary } from './alerts.js';
import { namePattern } from '../model/params.js';

export type AlertPath = `alerts.${string}`;

/** An alert's readings per incident, in ms: each is a record by incident name (AlertSummary). */
export const INCIDENT_READINGS = ['detection_delay_ms', 'recovery_ms'] as const;
export type IncidentReading = (typeof INCIDENT_READINGS)[number];

/** What an alert path asks for. */
export type AlertQuery = { alert: string } & ({ reading: 'false_alarms' | 'firings' } | { reading: IncidentReading; incident: string });

/** Paths as `expect:` may write them (names as model/params.ts's NAME_PATTERN allows). */
export const ALERT_PATH_PATTERN = `^alerts\\.${namePattern('\\.')}\\.(false_alarms|firings|(${INCIDENT_READINGS.join('|')})\\.${namePattern('$')})$`;

export function isAlertPath(path: string): path is AlertPath {
  return new RegExp(ALERT_PATH_PATTERN).test(path);
}

export function alertQuery(path: AlertPath): AlertQuery {
  const [, alert = '', reading = '', incident = ''] = path.split('.');
  return (INCIDENT_READINGS as readonly string[]).includes(reading)
    ? { alert, reading: reading as IncidentReading, incident }
    : { alert, reading: reading as 'false_alarms' | 'firings' };
}

/** The alert a path reads and what it asks of it, when the run has that reading (the alert and, for a delay, the incident). */
function reading(alerts: readonly AlertSummary[] | undefined, path: AlertPath): { a: AlertSummary; q: AlertQuery } | undefined {
  const q = alertQuery(path);
  const a = alerts?.find((x) => x.name === q.alert);
  // An own key only: an incident this run lacks may be named like an Object member (toString).
  if (!a || ('incident' in q && !Object.hasOwn(a[q.reading] ?? {}, q.incident))) return undefined;
  return { a, q };
}

/** Whether the run has the reading at `path`: the alert and, for a delay, the incident. */
export function hasReading(alerts: readonly AlertSummary[] | undefined, path: AlertPath): boolean {
  return reading(alerts, path) !== undefined;
}

/** The value at `path` (null: the alert never fired for that incident, or the run has no such alert). */
export function readAlert(alerts: readonly AlertSummary[] | undefined, path: AlertPath): number | null {
  const found = reading(alerts, path);
  if (!found) return null;
  const { a, q } = found;
  switch (q.reading) {
    case 'false_alarms': return a.false_alarms;
    case 'firings': return a.firing_count;
    case 'detection_delay_ms': case 'recovery_ms': return a[q.reading]?.[q.incident] ?? null;
  }
}
