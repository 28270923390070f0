/**
 * The CSV that idem-sim writes, and the columns of a sweep's (`sweep --format csv` and `merge
 * --format csv`: its rows are sweep-csv.ts's), with their units and meanings from here and from
 * the metric registry; docs/csv.md lists them (a unit test holds the two together).
 */
import { stringify } from 'csv-stringify/sync';
import { ALL_METRIC_PATHS, METRICS, type MetricDef, type MetricPath, type Scale } from '../results/metric-registry.js';
import { readMetric } from '../results/metric-paths.js';
import type { Metrics } from '../results/metrics.js';
import { printable } from '../scenario/printable.js';
import { isDurationKey } from '../scenario/schema.js';

/** One column of the CSV. */
export interface CsvColumn {
  name: string;
  /** As docs/csv.md prints it: `ms`, `per 1000 actions`, `MB (10^6 bytes)`, or `` for a setting as written. */
  unit: string;
  description: string;
}

/** The bounds that follow an estimate's column. */
export const CI_SUFFIXES = ['_ci95_low', '_ci95_high'] as const;

/** A varied key's column: `param_<path>`, with `_ms` after a duration (its values are milliseconds). */
export function paramColumn(path: string): string {
  return isDurationKey(path) ? `param_${path}_ms` : `param_${path}`;
}

function scaleWords(scale: Scale): string {
  if (scale.per === 'actions') return scale.times === 1 ? 'per action' : `per ${scale.times} actions`;
  return scale.per === 'second' ? 'per second' : 'per day';
}

/** A metric's unit in words, from the registry. */
export function unitWords(def: MetricDef): string {
  switch (def.unit) {
    case 'count': return def.scale ? scaleWords(def.scale) : 'count';
    case 'ms': return 'ms';
    case 'fraction': return 'fraction (0 to 1)';
    case 'keys': return 'key records';
    case 'MB': return 'MB (10^6 bytes)';
    case 'actions': return 'actions';
    default: return assertNever(def.unit);
  }
}

/** The columns of a metric: its value, and for an estimate the bounds of its 95% interval. */
export function metricColumns(path: MetricPath): CsvColumn[] {
  const def = METRICS[path];
  const unit = unitWords(def);
  const value = { name: path, unit, description: def.description };
  if (def.kind !== 'estimate') return [value];
  return [value,
    { name: `${path}${CI_SUFFIXES[0]}`, unit, description: `lower end of ${path}'s 95% confidence interval` },
    { name: `${path}${CI_SUFFIXES[1]}`, unit, description: `upper end of ${path}'s 95% confidence interval` }];
}

/** The columns after the metrics. */
export const TRAILING_COLUMNS: readonly CsvColumn[] = [
  { name: 'seed', unit: '', description: 'the seed every point was simulated with (common random numbers)' },
  { name: 'idem_sim_version', unit: '', description: 'the idem-sim version that wrote the file' },
];

/**
 * The metrics a sweep's CSV has columns for, in report order: those every run reports, a coupled
 * run's (docs/model.md, "Capacity") when `coupled`, some point of the sweep being one, and a
 * later guard's (model/guards.ts) or a trigger's (results/delivery.ts) where some point `reports` it.
 */
export function csvMetricPaths(coupled: boolean, reports: (path: MetricPath) => boolean = () => false): MetricPath[] {
  return ALL_METRIC_PATHS.filter((p) => {
    const only = METRICS[p].only;
    return only === undefined || (only === 'capacity' && coupled) || ((only === 'guard' || only === 'trigger') && reports(p));
  });
}

/** Whether some of `metrics` report `path` (a metric not every run reports). */
export const reportedBy = (metrics: readonly Metrics[]) => (path: MetricPath): boolean => metrics.some((m) => readMetric(m, path).value !== null);

/** Every column of a sweep over `paths`, in order: the varied keys, the metrics in report order (csvMetricPaths), seed and version. */
export function csvColumns(paths: readonly string[], coupled = false, reports?: (path: MetricPath) => boolean): CsvColumn[] {
  return [
    ...paths.map((p) => ({ name: paramColumn(p), unit: isDurationKey(p) ? 'ms' : '', description: `the value of ${p} at this point` })),
    ...csvMetricPaths(coupled, reports).flatMap(metricColumns),
    ...TRAILING_COLUMNS,
  ];
}

/**
 * A text cell's first character that a spreadsheet reads as the start of a formula (full-width
 * forms too), after any spaces it trims; the cell is printable by then (a tab, a carriage return,
 * a byte order mark or a zero-width space before it is written as `\u0009` and the like).
 */
const FORMULA_START = /^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;
/** Text that is a plain number (a seed such as -5): a spreadsheet reads it as that number, so it stays as it is. */
const PLAIN_NUMBER = /^[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

/**
 * Rows as CSV, the one way idem-sim writes it, after a header of `columns` (without one:
 * `header` false, rows that follow it). Text is made printable first, as on a terminal
 * (printable.ts): a zero-width space before a `=` is then `\u200b=`, no formula. A text cell that
 * a spreadsheet would take for a formula (starting with =, +, -, @: a scenario named `=1+1.yaml`,
 * a seed `-x`) is written with a ' before it, as spreadsheets expect; numbers, and text that is
 * a plain number, are left as they are. A number with no finite value (an interval's end over
 * no action) is an empty cell, as a missing value is, never `Infinity` or `NaN`.
 */
export function csvText(rows: readonly (readonly unknown[])[], columns: readonly string[], header = true): string {
  return stringify(rows as unknown[][], {
    header, columns: [...columns],
    cast: {
      number: (x) => (Number.isFinite(x) ? String(x) : ''),
      string: (text) => {
        const x = printable(text);
        return FORMULA_START.test(x) && !PLAIN_NUMBER.test(x) ? `'${x}` : x;
      },
    },
  });
}

function assertNever(x: never): never {
  throw new TypeError(`unhandled ${JSON.stringify(x)}`);
}
