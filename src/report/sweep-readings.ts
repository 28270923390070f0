/**
 * A sweep point's reading by the name `--metric` and `--find` give it (sweeps/metric.ts): a
 * metric, a saturation reading or an alert's, its value, its cell in the table and its words on
 * a chart. An incident's backlog reads with its recovery's status (results/saturation.ts), so
 * that a point that stormed before the incident or never recovered never shows as a short
 * backlog.
 */
import { alertQuery, isAlertPath, readAlert } from '../results/alert-paths.js';
import { isDurationMetric, readMetric, type MetricReading } from '../results/metric-paths.js';
import { metricShort, metricTitle } from '../results/metric-registry.js';
import type { Metrics } from '../results/metrics.js';
import { isSaturationPath, readSaturation, saturationQuery, type RecoveryStatus } from '../results/saturation.js';
import { isDurationReading } from '../scenario/expect.js';
import type { SweepMetric } from '../sweeps/metric.js';
import { alertCell } from './sweep-alerts.js';
import { duration } from './format.js';
import { capitalised } from './metric-text.js';
import { recoveryWord, type RecoveryWord } from './saturation-text.js';
import { cell, type SweepPointResult } from './sweep.js';

/** The reading at a point: its value and, for an estimate, its 95% interval. */
export function readPoint(pt: SweepPointResult, path: SweepMetric): MetricReading {
  if (isAlertPath(path)) return { value: readAlert(pt.alerts, path) };
  if (isSaturationPath(path)) return { value: readSaturation(pt.metrics, path) };
  return readMetric(pt.metrics, path);
}

/** A recovery's status as the table and charts say it. */
export const RECOVERY_WORDS = {
  recovered: 'recovered', not_recovered: 'not recovered', stormed_before: 'stormed before', stormed_after: 'stormed after',
  at_load_end: 'reaches the load\'s end', no_capacity: 'no capacity', no_incident: 'no such incident',
} as const satisfies Record<RecoveryWord, string>;

/** An incident's backlog as the table shows it: the time for a recovery, else its status (the time beside a window that reaches the load's end). */
export function backlogCell(m: Metrics, incident: string): string {
  const word = recoveryWord(m, incident);
  const v = m.backlog_cleared_ms?.[incident];
  if (word === 'recovered') return v === 0 ? '0 (no backlog)' : duration(v ?? null);
  if (word === 'at_load_end') return `${duration(v ?? null)} (load ended)`;
  if (word === 'stormed_after') return `${duration(v ?? null)} (stormed after)`;
  return word === 'no_capacity' || word === 'no_incident' ? '–' : RECOVERY_WORDS[word];
}

/** The reading as the sweep's table and heat map show it. */
export function pointCell(pt: SweepPointResult, path: SweepMetric): string {
  if (isAlertPath(path)) return alertCell(pt, path);
  if (!isSaturationPath(path)) return cell(pt.metrics, path);
  const q = saturationQuery(path);
  if (q.reading === 'backlog_cleared_ms') return backlogCell(pt.metrics, q.incident as string);
  const v = readSaturation(pt.metrics, path);
  return v === null ? '–' : String(v === 1);
}

/** A backlog's status in a heat map's cell (56 px): the section's note says each in full. */
export const RECOVERY_CELL_WORDS = { not_recovered: 'not rec.', stormed_before: 'stormed', stormed_after: 'stormed+', at_load_end: 'load end' } as const satisfies Record<Exclude<RecoveryStatus, 'recovered'>, string>;

/** The reading as a heat map's cell says it: pointCell, with a backlog's status in RECOVERY_CELL_WORDS. */
export function compactCell(pt: SweepPointResult, path: SweepMetric): string {
  if (!isSaturationPath(path) || saturationQuery(path).reading !== 'backlog_cleared_ms') return pointCell(pt, path);
  const word = recoveryWord(pt.metrics, saturationQuery(path).incident as string);
  return word === 'recovered' || word === 'no_capacity' || word === 'no_incident' ? pointCell(pt, path) : RECOVERY_CELL_WORDS[word];
}

/** The reading's column heading (short). */
export function readingShort(path: SweepMetric): string {
  if (isAlertPath(path)) {
    const q = alertQuery(path);
    return 'incident' in q ? `${q.alert} ${q.reading === 'recovery_ms' ? 'recovery' : 'delay'} (${q.incident})` : `${q.alert} ${q.reading.replace('_', ' ')}`;
  }
  if (!isSaturationPath(path)) return metricShort(path);
  const q = saturationQuery(path);
  return q.reading === 'stable' ? 'stable' : `${q.reading === 'recovered' ? 'recovered' : 'backlog'} (${q.incident})`;
}

/** The reading's chart title. */
export function readingTitle(path: SweepMetric): string {
  if (isAlertPath(path)) {
    const q = alertQuery(path);
    if (!('incident' in q)) return `Alert ${q.alert}: ${q.reading.replace('_', ' ')}`;
    return `Alert ${q.alert}: ${q.reading === 'recovery_ms' ? 'recovery after' : 'detection delay of'} ${q.incident}`;
  }
  if (!isSaturationPath(path)) return capitalised(metricTitle(path));
  const q = saturationQuery(path);
  if (q.reading === 'stable') return 'Stable (no overload episode)';
  return q.reading === 'recovered' ? `Recovered from ${q.incident} before the load ended` : `Backlog cleared after ${q.incident}`;
}

/** Whether the reading is a time (ms). */
export const isDurationSweepReading = (path: SweepMetric): boolean => (isAlertPath(path) || isSaturationPath(path) ? isDurationReading(path) : isDurationMetric(path));
