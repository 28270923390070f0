/**
 * A sweep's columns for its scenario's alerts (docs/model.md, "Time"): per alert, its detection
 * delay for each incident (and a coupled point's recovery, "Capacity"), its false alarms and its
 * firings, so that the threshold or timeout that detects fastest with no false alarm can be read
 * off the grid.
 */
import { alertQuery, hasReading, readAlert, type AlertPath } from '../results/alert-paths.js';
import type { AlertSummary } from '../results/alerts.js';
import { duration, num } from './format.js';
import type { SweepPointResult } from './sweep.js';

export interface AlertColumn {
  /** As the table heads it. */
  heading: string;
  /** As expect: and the CSV name it. */
  path: AlertPath;
}

/** Every alert reading of the points, in the order they first appear. */
export function alertColumns(points: readonly { alerts?: readonly AlertSummary[] | undefined }[]): AlertColumn[] {
  const seen = new Map<AlertPath, string>();
  for (const pt of points) {
    for (const a of pt.alerts ?? []) {
      for (const incident of Object.keys(a.detection_delay_ms)) seen.set(`alerts.${a.name}.detection_delay_ms.${incident}`, `${a.name} delay (${incident})`);
      for (const incident of Object.keys(a.recovery_ms ?? {})) seen.set(`alerts.${a.name}.recovery_ms.${incident}`, `${a.name} recovery (${incident})`);
      seen.set(`alerts.${a.name}.false_alarms`, `${a.name} false alarms`);
      seen.set(`alerts.${a.name}.firings`, `${a.name} firings`);
    }
  }
  return [...seen].map(([path, heading]) => ({ path, heading }));
}

/** The reading's value at a point (null: missed, or no such alert there). */
export const alertValue = (pt: SweepPointResult, path: AlertPath): number | null => readAlert(pt.alerts, path);

/** The reading as the table shows it: – where the point has no such alert or incident. */
export function alertCell(pt: SweepPointResult, path: AlertPath): string {
  if (!hasReading(pt.alerts, path)) return '–';
  const v = alertValue(pt, path);
  const { reading } = alertQuery(path);
  if (reading === 'detection_delay_ms') return v === null ? 'missed' : duration(v);
  if (reading === 'recovery_ms') return v === null ? 'no firing' : duration(v);
  return v === null ? '–' : num(v);
}
