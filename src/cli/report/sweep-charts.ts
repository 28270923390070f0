/**
 * Vega-Lite specs of a sweep's varied keys (pure: typed results in, specs out): a line chart
 * per headline metric for one key, heat maps for two. The frontier is in sweep-frontier.ts.
 */
import type { TopLevelSpec } from 'vega-lite';
import { isDurationMetric, readMetric, type MetricPath } from '../../model/metric-paths.js';
import { label, position, type ParamAxis } from './sweep-axes.js';
import { SUMMARY, type SweepReport } from './sweep.js';
import { duration, num } from './table.js';

/** One chart's view: a layered spec without top-level settings. */
export type ViewSpec = Extract<TopLevelSpec, { layer: unknown }>;

export interface ChartMetric {
  path: MetricPath;
  /** Chart title. */
  title: string;
  /** Axis or legend title: the table's column heading. */
  heading: string;
  /** In ms: labelled as durations. */
  duration: boolean;
}

const TITLES: Partial<Record<MetricPath, string>> = {
  duplicates_per_1000: 'Duplicates per 1000 actions',
  lost_per_1000: 'Lost actions per 1000',
  unknown_outcomes_per_1000: 'Unknown outcomes per 1000 actions',
  conflicts_409_per_1000: '409 in progress per 1000 actions',
  attempts_per_action: 'Attempts per action',
  'call_latency_ms.p95': 'Call latency, 95th percentile',
  key_store_mb: 'Steady-state key store (MB)',
};

/** Sizes above which a chart drops detail that would only blur it and bloat the page (see docs/charts.md). */
export const DETAIL_LIMITS = { lineDots: 100, frontierWhiskers: 200 };

export const ACCENT = '#d1495b';
export const MUTED = '#8c959f';

/** The table's headline metrics, then `metric` if it is not among them. */
export function chartMetrics(metric: MetricPath): ChartMetric[] {
  const paths = SUMMARY.some(([, p]) => p === metric) ? SUMMARY : [...SUMMARY, [metric, metric] as const];
  return paths.map(([heading, path]) => ({ path, heading, title: TITLES[path] ?? path, duration: isDurationMetric(path) }));
}

/** Axis and legend labels through the formatters charts.ts registers. */
export const formatOf = (isDuration: boolean) => ({ formatType: isDuration ? 'duration' : 'num' });

/** A varied key's values as categories, in grid order. */
function categories(axis: ParamAxis, field: 'x' | 'y', labelAngle?: number) {
  return { field, type: 'ordinal', title: axis.path, sort: axis.values.map((v) => label(axis, v)), ...(labelAngle === undefined ? {} : { axis: { labelAngle } }) } as const;
}

/** A numeric varied key on a continuous axis (log for a log range), ticks at the grid's values when they are few. */
function continuous(axis: ParamAxis) {
  return {
    field: 'x', type: 'quantitative', title: axis.path,
    scale: { ...(axis.log ? { type: 'log' as const } : { type: 'linear' as const, zero: false }), nice: false, padding: 10 },
    axis: { ...formatOf(axis.duration), ...(axis.values.length <= 12 ? { values: axis.values as number[] } : {}), labelOverlap: true },
  } as const;
}

/**
 * Metric `m` against the one varied key. A numeric key: a line with a dot per grid value (up to
 * DETAIL_LIMITS.lineDots) and the 95% CI as a band. A key of categories (scopes, presets): a dot
 * per category with its 95% CI as a whisker, unjoined (the categories have no order between them).
 */
export function lineChart(r: SweepReport, axis: ParamAxis, m: ChartMetric, name: string): ViewSpec {
  const rows = r.points.map((pt) => {
    const v = readMetric(pt.metrics, m.path);
    return { x: position(axis, pt.params[axis.path] ?? null), value: v.value, lo: v.ci95?.[0] ?? null, hi: v.ci95?.[1] ?? null };
  }).filter((row) => row.value !== null);
  const x = axis.numeric ? continuous(axis) : categories(axis, 'x', axis.values.length <= 10 ? 0 : undefined);
  const y = { field: 'value', type: 'quantitative', title: m.heading, axis: formatOf(m.duration) } as const;
  const ci = { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' } } as const;
  const hasCi = rows.some((row) => row.lo !== null && row.hi !== row.lo);
  const dots = { name: `${name}_points`, mark: { type: 'point', filled: true, color: ACCENT, size: 30 }, encoding: { x, y } } as const;
  const layer = axis.numeric
    ? [
      ...(hasCi ? [{ name: `${name}_ci`, mark: { type: 'area', color: ACCENT, opacity: 0.18 }, encoding: ci } as const] : []),
      { name: `${name}_line`, mark: { type: 'line', color: ACCENT }, encoding: { x, y } } as const,
      ...(rows.length <= DETAIL_LIMITS.lineDots ? [dots] : []),
    ]
    : [...(hasCi ? [{ name: `${name}_ci`, mark: { type: 'rule', color: ACCENT, opacity: 0.6 }, encoding: ci } as const] : []), dots];
  return { title: m.title, description: `${m.title} against ${axis.path}`, width: 300, height: 160, data: { values: rows }, layer };
}

/** Cells wide enough for their value as text: one row of up to 16 columns, 30 rows. */
const TEXT_LIMIT = { columns: 16, rows: 30 };

/** Metric `m` over two varied keys: x the first, y the second, a cell per point coloured low to high, with its value as text when cells are large enough. */
export function heatMap(r: SweepReport, [xa, ya]: [ParamAxis, ParamAxis], m: ChartMetric, scheme: 'orangered' | 'blues' | 'purples', name: string): ViewSpec {
  const values = r.points.map((pt) => readMetric(pt.metrics, m.path).value);
  const known = values.filter((v): v is number => v !== null);
  const lo = known.length ? Math.min(...known) : 0;
  const hi = known.length ? Math.max(...known) : 1;
  const top = hi > lo ? hi : lo + 1;
  const rows = r.points.map((pt, k) => {
    const v = values[k] ?? null;
    return {
      x: label(xa, pt.params[xa.path] ?? null), y: label(ya, pt.params[ya.path] ?? null), value: v,
      text: v === null ? '–' : m.duration ? duration(v) : num(v),
      dark: v !== null && (v - lo) / (top - lo) > 0.55, // the darker half of the scheme: white text
    };
  });
  const withText = xa.values.length <= TEXT_LIMIT.columns && ya.values.length <= TEXT_LIMIT.rows;
  const x = categories(xa, 'x', withText ? 0 : undefined); // wide cells: labels fit level
  const y = categories(ya, 'y');
  return {
    title: m.title, description: `${m.title} for each ${xa.path} and ${ya.path}`,
    width: { step: withText ? 56 : Math.max(6, Math.floor(640 / xa.values.length)) },
    height: { step: withText ? 24 : Math.max(6, Math.floor(480 / ya.values.length)) },
    data: { values: rows },
    layer: [
      {
        name: `${name}_cells`, mark: { type: 'rect' },
        encoding: { x, y, color: { field: 'value', type: 'quantitative', title: m.heading, scale: { scheme, domain: [lo, top] }, legend: formatOf(m.duration) } },
      },
      ...(withText ? [{
        name: `${name}_text`, mark: { type: 'text', fontSize: 11 },
        encoding: { x, y, text: { field: 'text' }, color: { condition: { test: 'datum.dark', value: 'white' }, value: '#1b1f24' } },
      } as const] : []),
    ],
  };
}
