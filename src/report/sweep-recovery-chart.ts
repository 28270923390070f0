/**
 * A sweep's recovery charts (pure): for each incident, its backlog (`backlog_cleared_ms`: how
 * long after its end a worker was free again) against the one varied key, each point marked by
 * its recovery's status (results/saturation.ts) so that a point that stormed before the
 * incident or never recovered cannot pass for a short backlog; `--find`'s bound on it as a
 * dashed rule. Two keys: a heat map per incident, whose cells say the status in words.
 */
import { isSaturationPath, RECOVERY_STATUSES, saturationQuery, type RecoveryStatus } from '../results/saturation.js';
import type { FindCondition } from '../sweeps/find.js';
import { niceTop } from './sweep-frontier.js';
import { recoveryWord } from './saturation-text.js';
import { paramAxes, position, type ParamAxis } from './sweep-axes.js';
import { chartMetric, formatOf, heatMap, LINE, xOf, ACCENT, MUTED, type ViewSpec } from './sweep-charts.js';
import { backlogColumns, type SweepReport } from './sweep.js';
import { duration } from './format.js';
import { RECOVERY_CELL_WORDS } from './sweep-readings.js';

/** How each status is drawn (a Record: a new status without its mark is a compile error). */
const MARK_OF: Readonly<Record<RecoveryStatus, { words: string; color: string; shape: string }>> = {
  recovered: { words: 'recovered', color: ACCENT, shape: 'circle' },
  at_load_end: { words: 'window reaches the load\'s end', color: MUTED, shape: 'diamond' },
  not_recovered: { words: 'not recovered before the load ended', color: '#57606a', shape: 'triangle-up' },
  stormed_before: { words: 'stormed before the incident', color: '#1b1f24', shape: 'cross' },
  stormed_after: { words: 'a storm outliving it by 30 min+', color: '#8c959f', shape: 'triangle-down' },
};
/** What a heat map's cell word means (a Record: a status without its words is a compile error). */
const CELL_MEANING: Readonly<Record<keyof typeof RECOVERY_CELL_WORDS, string>> = {
  stormed_before: 'stormed before the incident', not_recovered: 'not recovered before the load ended', at_load_end: 'the window reaches it',
  stormed_after: 'a storm outliving the incident by more than 30 minutes',
};
const CELL_KEY = (Object.keys(CELL_MEANING) as (keyof typeof CELL_MEANING)[]).map((k) => `${RECOVERY_CELL_WORDS[k]} (${CELL_MEANING[k]})`).join(', ');

/** The marks in the legend's order, the statuses' own (results/saturation.ts). */
const MARKS = RECOVERY_STATUSES.map((status) => ({ status, ...MARK_OF[status] }));

/** The incidents whose backlog some point reports, in the order the points name them. */
export const recoveryIncidents = (r: SweepReport): string[] => backlogColumns(r).map((p) => p.slice('backlog_cleared_ms.'.length));

/** The bound `--find` puts on the incident's backlog (`<` or `<=`), if any. */
function bound(find: readonly FindCondition[] | undefined, incident: string): FindCondition | undefined {
  return find?.find((c) => isSaturationPath(c.path) && c.path.startsWith('backlog_cleared_ms.') && saturationQuery(c.path).incident === incident && (c.op === '<' || c.op === '<='));
}

/**
 * The incident's backlog against the one varied key. The y axis covers the points that
 * recovered (and --find's bound): a point above it (a storm's backlog drains only after the
 * load) is drawn on its top edge, its mark saying why.
 */
export function recoveryChart(r: SweepReport, axis: ParamAxis, incident: string, name: string): ViewSpec {
  const rows = r.points.flatMap((pt) => {
    const status = recoveryWord(pt.metrics, incident);
    const value = pt.metrics.backlog_cleared_ms?.[incident];
    if (status === 'no_capacity' || status === 'no_incident' || value === undefined) return [];
    return [{ x: position(axis, pt.params[axis.path] ?? null), value, status: MARK_OF[status].words }];
  });
  const limit = bound(r.find, incident);
  const good = rows.filter((row) => row.status === MARK_OF.recovered.words || row.status === MARK_OF.at_load_end.words).map((row) => row.value);
  let most = 0;
  for (const v of good.length > 0 ? good : rows.map((row) => row.value)) most = Math.max(most, v); // a loop: no spread of many arguments
  const top = niceTop(Math.max(most * 1.1, (limit?.threshold ?? 0) * 1.25));
  const m = chartMetric(`backlog_cleared_ms.${incident}`);
  const x = xOf(axis);
  const domain: number[] = [0, top];
  const y = { field: 'value', type: 'quantitative', title: m.heading, scale: { domain, clamp: true, nice: false }, axis: formatOf(true) } as const;
  const present = MARKS.filter((mk) => rows.some((row) => row.status === mk.words));
  // One legend: colour and shape of the same field, with the same title, merge.
  const legend = { title: 'recovery', orient: 'bottom', direction: 'vertical', labelLimit: 280 } as const;
  const encoding = {
    x, y,
    color: { field: 'status', type: 'nominal', scale: { domain: present.map((mk) => mk.words), range: present.map((mk) => mk.color) }, legend },
    shape: { field: 'status', type: 'nominal', scale: { domain: present.map((mk) => mk.words), range: present.map((mk) => mk.shape) }, legend },
  } as const;
  const above = rows.some((row) => row.value > top);
  const boundData = { values: limit ? [{ value: limit.threshold, text: `--find: ${duration(limit.threshold)}` }] : [] };
  const boundY = { field: 'value', type: 'quantitative' } as const;
  const dash: number[] = [4, 3];
  return {
    title: {
      text: m.title,
      subtitle: [`each point marked by its recovery${above ? '; a point above the chart is drawn on its top edge' : ''}`, ...(limit ? [`dashed: --find ${limit.text}`] : [])],
    },
    description: `${m.title} against ${axis.path}`,
    width: LINE.width, height: LINE.height, data: { values: rows },
    layer: [
      { name: `${name}_points`, mark: { type: 'point', filled: true, size: 50, opacity: 0.9 }, encoding },
      ...(limit ? [
        { name: `${name}_bound`, data: boundData, mark: { type: 'rule', color: MUTED, strokeDash: dash }, encoding: { y: boundY } } as const,
        { name: `${name}_bound_text`, data: boundData, mark: { type: 'text', align: 'left', dx: 2, dy: -6, fontSize: 10, color: '#57606a' }, encoding: { y: boundY, x: { value: 0 }, text: { field: 'text' } } } as const,
      ] : []),
    ],
  };
}

/** A heat map per incident of its backlog over two varied keys, each cell saying its recovery (sweep-charts.ts heatMap). */
export function recoveryHeatMap(r: SweepReport, axes: [ParamAxis, ParamAxis], incident: string, name: string): ViewSpec {
  return heatMap(r, axes, chartMetric(`backlog_cleared_ms.${incident}`), 'purples', name, true);
}

/** What the page and the SVG draw of the recoveries: a chart per incident over one or two varied keys; null for none (or more keys). */
export function recoverySection(r: SweepReport): { heading: string; note: string; views: ViewSpec[]; left: string[] } | null {
  const incidents = recoveryIncidents(r);
  const axes = paramAxes(r);
  const [first, second] = axes;
  if (incidents.length === 0 || !first || axes.length > 2) return null;
  const views = incidents.map((incident, k) => (second ? recoveryHeatMap(r, [first, second], incident, `recovery${k}`) : recoveryChart(r, first, incident, `recovery${k}`)));
  return {
    heading: 'Recovery from each incident',
    note: `${second ? 'A cell' : 'A mark'} per point: how long after the incident's end every worker stayed busy (backlog_cleared_ms, exact from the workers: docs/capacity.md, "Saturation"). `
      + 'A point that stormed before the incident (an overload episode began a minute or more before it), did not recover before the load ended, whose window reaches the load\'s end, or whose storm outlived the incident by more than 30 minutes says so: its backlog is no recovery, and --find never counts it as one.'
      + `${second ? ` In a cell: ${CELL_KEY}.` : ''}`,
    views, left: [],
  };
}
