/**
 * Vega-Lite specs of a sweep's varied keys (pure: typed results in, specs out): a line chart
 * per headline metric for one key, heat maps for two. The frontier is in sweep-frontier.ts.
 */
import type { TopLevelSpec } from 'vega-lite';
import { isAlertPath } from '../results/alert-paths.js';
import { isSaturationPath } from '../results/saturation.js';
import type { SweepMetric } from '../sweeps/metric.js';
import { textWidth } from './charts.js';
import { duration, num } from './format.js';
import { label, position, thinLabels, type ParamAxis } from './sweep-axes.js';
import { compactCell, isDurationSweepReading, readingShort, readingTitle, readPoint } from './sweep-readings.js';
import { sweepMetrics, type SweepReport } from './sweep.js';
import { axisTicks } from './sweep-variation.js';

/** One chart's view: a layered spec without top-level settings. */
export type ViewSpec = Extract<TopLevelSpec, { layer: unknown }>;

export interface ChartMetric {
  path: SweepMetric;
  /** Chart title. */
  title: string;
  /** Axis or legend title: the table's column heading. */
  heading: string;
  /** In ms: labelled as durations. */
  duration: boolean;
}

/** Sizes above which a chart drops detail that would only blur it and bloat the page (see docs/charts.md). */
export const DETAIL_LIMITS = { lineDots: 100, frontierWhiskers: 200 };

export const ACCENT = '#d1495b';
export const MUTED = '#8c959f';

/** A reading's chart: its title, heading and unit (from the metric registry for a metric). */
export const chartMetric = (path: SweepMetric): ChartMetric => ({ path, heading: readingShort(path), title: readingTitle(path), duration: isDurationSweepReading(path) });

/**
 * The table's headline metrics, then `metric` if it is not among them. An incident's backlog is
 * not among them: its chart marks the points that did not recover (sweep-recovery-chart.ts).
 */
export function chartMetrics(metric: SweepMetric): ChartMetric[] {
  return sweepMetrics(metric).filter((path) => !(isSaturationPath(path) && path.startsWith('backlog_cleared_ms.'))).map(chartMetric);
}

/** Axis and legend labels through the formatters charts.ts registers. */
export const formatOf = (isDuration: boolean) => ({ formatType: isDuration ? 'duration' : 'num' });

/** Axis labels: the font size of CONFIG.axis in charts.ts, and the px a label takes across its line (upright, or tilted 45°). */
const LABEL = { fontSize: 11, line: 13, tilted: 18 };

/**
 * Labels of categories `step` px apart: level when they all fit, else upright; on a vertical
 * axis (`down`) one line each. Thinned (evenly, with both ends) when they still overlap.
 */
function bandLabels(texts: readonly string[], step: number, down: boolean) {
  const at = texts.map((_, i) => i * step);
  const subset = (kept: number[]) => (kept.length < texts.length ? { values: kept.map((i) => texts[i] as string) } : {});
  if (down) return subset(thinLabels(at, () => LABEL.line));
  if (thinLabels(at, (i) => textWidth(texts[i] as string, LABEL.fontSize)).length === texts.length) return { labelAngle: 0 };
  return { labelAngle: -90, ...subset(thinLabels(at, () => LABEL.line)) };
}

/** A varied key's values as categories, in grid order, `step` px apart. */
function categories(axis: ParamAxis, field: 'x' | 'y', step: number) {
  const sort = axis.values.map((v) => label(axis, v));
  return { field, type: 'ordinal', title: axis.path, sort, axis: bandLabels(sort, step, field === 'y') } as const;
}

/** Line charts: size in px, and the space kept at each end of a continuous x axis. */
export const LINE = { width: 300, height: 160, padding: 10 };

/** Up to this many values, a continuous key's axis has a tick at each (see docs/charts.md). */
export const TICK_EVERY_VALUE = 12;

/**
 * A continuous key's axis labels: a tick at each grid value (up to TICK_EVERY_VALUE), each one
 * labelled, level when they fit, else tilted 45°; thinned evenly (both ends kept) when they still
 * overlap. More values: ticks and labels at an evenly thinned subset of them, ends included.
 */
export function valueLabels(axis: ParamAxis, width = LINE.width) {
  const sorted = [...new Set(axis.values as number[])].sort((a, b) => a - b);
  const f = axis.log ? Math.log : (v: number) => v;
  const [lo, hi] = [f(sorted[0] as number), f(sorted.at(-1) as number)];
  const at = sorted.map((v) => (hi > lo ? LINE.padding + ((f(v) - lo) / (hi - lo)) * (width - 2 * LINE.padding) : width / 2));
  const texts = sorted.map((v) => label(axis, v));
  const level = thinLabels(at, (i) => textWidth(texts[i] as string, LABEL.fontSize));
  const tilt = level.length < sorted.length && (sorted.length <= TICK_EVERY_VALUE || level.length < 4);
  const shown = (tilt ? thinLabels(at, () => LABEL.tilted) : level).map((i) => sorted[i] as number);
  const ticks = sorted.length <= TICK_EVERY_VALUE ? sorted : shown;
  // Every digit when two values print alike (ParamAxis.exact): vega's format() with 12 significant digits, as exactText.
  const text = axis.exact ? `format(datum.value, '.12~g')${axis.duration ? " + ' ms'" : ''}` : 'datum.label';
  return {
    values: ticks, labelOverlap: false, labelFlush: false, ...(tilt ? { labelAngle: -45 } : {}),
    ...(ticks.length > shown.length ? { labelExpr: `indexof(${JSON.stringify(shown)}, datum.value) < 0 ? '' : ${text}` } : axis.exact ? { labelExpr: text } : {}),
  };
}

/** A numeric varied key on a continuous axis (log for a log range), labelled at the grid's values. */
function continuous(axis: ParamAxis) {
  return {
    field: 'x', type: 'quantitative', title: axis.path,
    scale: { ...(axis.log ? { type: 'log' as const } : { type: 'linear' as const, zero: false }), nice: false, padding: LINE.padding },
    axis: { ...formatOf(axis.duration), ...valueLabels(axis) },
  } as const;
}

/**
 * Metric `m` against the one varied key. A numeric key: a line with a dot per grid value (up to
 * DETAIL_LIMITS.lineDots) and the 95% CI as a band. A key of categories (scopes, presets): a dot
 * per category with its 95% CI as a whisker, unjoined (the categories have no order between them).
 */
export function lineChart(r: SweepReport, axis: ParamAxis, m: ChartMetric, name: string): ViewSpec {
  const rows = r.points.map((pt) => {
    const v = readPoint(pt, m.path);
    return { x: position(axis, pt.params[axis.path] ?? null), value: v.value, lo: v.ci95?.[0] ?? null, hi: v.ci95?.[1] ?? null };
  }).filter((row) => row.value !== null);
  const x = xOf(axis);
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
  return { title: m.title, description: `${m.title} against ${axis.path}`, width: LINE.width, height: LINE.height, data: { values: rows }, layer };
}

/** The x encoding of a line chart over the one varied key: continuous for numbers, else a category per value. */
export const xOf = (axis: ParamAxis) => (axis.numeric ? continuous(axis) : categories(axis, 'x', LINE.width / axis.values.length));

/** Cells wide enough for their value as text: one row of up to 16 columns, 30 rows. */
const TEXT_LIMIT = { columns: 16, rows: 30 };

/** Colour ramps of the heat maps, from white (the scale's least: 0 unless said otherwise) through a middle to the darkest. */
export const RAMPS = {
  reds: ['#ffffff', '#fb6a4a', '#67000d'],
  blues: ['#ffffff', '#6baed6', '#08306b'],
  purples: ['#ffffff', '#9e9ac8', '#3f007d'],
} as const;

/**
 * Metric `m` over two varied keys: x the first, y the second, a cell per point coloured from white
 * (0, or the least value when `fromZero` is false) to dark, with its value as text when cells are
 * large enough.
 */
export function heatMap(r: SweepReport, [xa, ya]: [ParamAxis, ParamAxis], m: ChartMetric, ramp: keyof typeof RAMPS, name: string, fromZero = true): ViewSpec {
  const values = r.points.map((pt) => readPoint(pt, m.path).value);
  // A saturation's or an alert's reading says its words (not recovered, stormed before, missed) where a number would mislead.
  const words = isSaturationPath(m.path) || isAlertPath(m.path);
  const known = values.filter((v): v is number => v !== null);
  const least = known.length ? Math.min(...known) : 0;
  const lo = fromZero ? Math.min(0, least) : least;
  const hi = known.length ? Math.max(...known) : 1;
  const top = hi > lo ? hi : lo + 1;
  const rows = r.points.map((pt, k) => {
    const v = values[k] ?? null;
    return {
      x: label(xa, pt.params[xa.path] ?? null), y: label(ya, pt.params[ya.path] ?? null), value: v,
      text: words ? compactCell(pt, m.path) : v === null ? '–' : m.duration ? duration(v) : num(v),
      dark: v !== null && (v - lo) / (top - lo) > 0.55, // the darker half of the ramp: white text
    };
  });
  const withText = xa.values.length <= TEXT_LIMIT.columns && ya.values.length <= TEXT_LIMIT.rows;
  const step = { x: withText ? 56 : Math.max(6, Math.floor(640 / xa.values.length)), y: withText ? 24 : Math.max(6, Math.floor(480 / ya.values.length)) };
  const x = categories(xa, 'x', step.x);
  const y = categories(ya, 'y', step.y);
  const scale = { type: 'linear' as const, domain: [lo, (lo + top) / 2, top], range: [...RAMPS[ramp]], interpolate: 'lab' as const };
  // From the least value, vega's own legend ticks can be finer than the labels print: ticks that never repeat.
  const legendTicks = fromZero ? {} : { values: axisTicks(lo, top, 5, m.duration) };
  return {
    title: m.title, description: `${m.title} for each ${xa.path} and ${ya.path}`,
    width: { step: step.x }, height: { step: step.y },
    data: { values: rows },
    layer: [
      {
        name: `${name}_cells`, mark: { type: 'rect' },
        encoding: { x, y, color: { field: 'value', type: 'quantitative', title: m.heading, scale, legend: { ...formatOf(m.duration), ...legendTicks } } },
      },
      ...(withText ? [{
        name: `${name}_text`, mark: { type: 'text', fontSize: 11 },
        encoding: { x, y, text: { field: 'text' }, color: { condition: { test: 'datum.dark', value: 'white' }, value: '#1b1f24' } },
      } as const] : []),
    ],
  };
}
