/** A sweep's points and report, and its table (rows, or a heat map of two keys); CSV is in sweep-csv.ts, JSON in sweep-json.ts. */
import type { AlertSummary } from '../results/alerts.js';
import { coupledMetrics } from '../results/capacity.js';
import { triggeredMetrics } from '../results/delivery.js';
import { alertCell, alertColumns } from './sweep-alerts.js';
import type { ChalkInstance } from 'chalk';
import { readMetric, type MetricPath } from '../results/metric-paths.js';
import type { Metrics } from '../results/metrics.js';
import type { FindCondition } from '../sweeps/find.js';
import type { SweepMetric } from '../sweeps/metric.js';
import { printable } from '../scenario/printable.js';
import { isDurationKey } from '../scenario/schema.js';
import { drawRows } from './sweep-table.js';
import type { PrecisionInfo } from './types.js';
import { describeReading, duration } from './format.js';
import { answerLines, found } from './sweep-find.js';
import { pointCell, readingShort, readPoint } from './sweep-readings.js';

export interface SweepPointResult {
  /** Varied key path -> the value it took, as resolved (durations in ms). */
  params: Record<string, string | number | boolean | null>;
  metrics: Metrics;
  precision?: PrecisionInfo;
  /** The scenario's alerts at this point, evaluated on its series. */
  alerts?: AlertSummary[];
}

export interface SweepReport {
  scenario: string | null;
  paths: string[];
  seed: string;
  version: string;
  replay: string;
  points: SweepPointResult[];
  /** Varied keys whose values come from a log range (`log:100ms..10s:9`): charts draw them on a log axis. */
  logPaths?: string[];
  /** `--find`'s conditions (sweeps/find.ts): each report marks the points that meet them all and answers with the least value of the first key. */
  find?: readonly FindCondition[];
}

/** The table's columns: the headline metrics, each headed by its registry `short`. */
export const SUMMARY: readonly MetricPath[] = [
  'duplicates_per_1000', 'lost_per_1000', 'unknown_outcomes_per_1000', 'conflicts_409_per_1000', 'attempts_per_action', 'call_latency_ms.p95', 'key_store_mb',
];

/** What the table adds when a point is coupled (docs/model.md, "Capacity"). */
export const CAPACITY_SUMMARY: readonly MetricPath[] = ['shed_per_1000', 'queue_wait_ms.p95', 'utilisation'];

/** What the table adds when a point has a trigger (docs/model.md, "Inbound delivery"): its repeats' own readings. */
export const TRIGGER_SUMMARY: readonly MetricPath[] = ['redelivered_per_1000', 'dead_lettered_per_1000'];

/** The metrics of a sweep's table and charts: SUMMARY, then `metric` if it is not among them. */
export const sweepMetrics = (metric: SweepMetric): readonly SweepMetric[] => ((SUMMARY as readonly SweepMetric[]).includes(metric) ? SUMMARY : [...SUMMARY, metric]);

/** Each incident's backlog, a column of the table where some point has the saturation readings (a point that stormed before the incident or did not recover says so). */
export function backlogColumns(r: SweepReport): SweepMetric[] {
  const incidents = new Set<string>();
  for (const pt of r.points) for (const name of Object.keys(pt.metrics.recovery ?? {})) incidents.add(name);
  return [...incidents].map((name): SweepMetric => `backlog_cleared_ms.${name}`);
}

/** A metric as the table shows it: value ± CI half-width, or – for none. */
export function cell(m: Metrics, path: MetricPath): string {
  const r = readMetric(m, path);
  return r.value === null ? '–' : describeReading(r, path);
}

/** A varied key's value as people read it: durations in their unit, null as none, text printable (a file name). */
export const show = (v: string | number | boolean | null, path: string) =>
  v === null ? 'none' : typeof v === 'number' && isDurationKey(path) ? duration(v) : printable(String(v));

export function renderSweepTable(r: SweepReport, metric: SweepMetric, chalk: ChalkInstance): string {
  const answer = r.find?.length ? `${answerLines(r, r.find).map((line) => `found: ${line}`).join('\n')}\n` : '';
  const footer = `${answer}${chalk.dim(`${r.points.length} points, each from seed ${r.seed} (common random numbers); idem-sim ${r.version}\nreplay: ${r.replay}`)}`;
  if (r.paths.length === 2) return `${heatMap(r, metric, chalk)}\n${footer}\n`;
  const coupled = r.points.some((p) => coupledMetrics(p.metrics));
  const triggered = r.points.some((p) => triggeredMetrics(p.metrics));
  const shown = sweepMetrics(metric);
  const columns = [...shown, ...[...(triggered ? TRIGGER_SUMMARY : []), ...(coupled ? CAPACITY_SUMMARY : []), ...backlogColumns(r)].filter((m) => !shown.includes(m))];
  const alerts = alertColumns(r.points);
  const find = r.find?.length ? r.find : undefined;
  const table = drawRows([...r.paths, ...columns.map(readingShort), ...alerts.map((a) => a.heading), ...(find ? ['found'] : [])].map((h) => chalk.bold(h)),
    r.points.map((pt) => [
      ...r.paths.map((p) => show(pt.params[p] ?? null, p)), ...columns.map((m) => pointCell(pt, m)), ...alerts.map((a) => alertCell(pt, a.path)),
      ...(find ? [found(pt, find) ? 'yes' : 'no'] : []),
    ]),
    [...r.paths.map(() => 'left' as const), ...columns.map(() => 'right' as const), ...alerts.map(() => 'right' as const), ...(find ? ['left' as const] : [])]);
  return `${table}\n${footer}\n`;
}

/** Rows: the first key's values; columns: the second's; cells: the metric, coloured low to high on a terminal. */
function heatMap(r: SweepReport, metric: SweepMetric, chalk: ChalkInstance): string {
  const [rowPath, colPath] = r.paths as [string, string];
  const rows = [...new Set(r.points.map((p) => JSON.stringify(p.params[rowPath] ?? null)))];
  const cols = [...new Set(r.points.map((p) => JSON.stringify(p.params[colPath] ?? null)))];
  // A loop, not Math.min(...values): a spread of 10^5 arguments can overflow the stack.
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of r.points) {
    const v = readPoint(p, metric).value;
    if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  }
  // The first point of each cell, found once (a search of every point per cell was quadratic).
  const at = new Map<string, SweepPointResult>();
  for (const p of r.points) {
    const key = `${JSON.stringify(p.params[rowPath] ?? null)}\u0000${JSON.stringify(p.params[colPath] ?? null)}`;
    if (!at.has(key)) at.set(key, p);
  }
  const paint = (v: number | null, text: string) => {
    if (v === null || hi === lo) return text;
    const f = (v - lo) / (hi - lo);
    return f < 1 / 3 ? chalk.green(text) : f < 2 / 3 ? chalk.yellow(text) : chalk.red(text);
  };
  const table = drawRows([chalk.bold(`${rowPath} \\ ${colPath}`), ...cols.map((c) => chalk.bold(show(JSON.parse(c) as string | number, colPath)))],
    rows.map((row) => [show(JSON.parse(row) as string | number, rowPath), ...cols.map((col) => {
      const pt = at.get(`${row}\u0000${col}`);
      if (!pt) return '';
      return paint(readPoint(pt, metric).value, pointCell(pt, metric));
    })]),
    ['left', ...cols.map(() => 'right' as const)]);
  return `${chalk.bold(metric)}\n${table}`;
}
