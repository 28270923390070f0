/**
 * The frontier chart (pure): key-store memory against duplicates for every point of a sweep,
 * the Pareto-optimal points highlighted, joined and labelled.
 */
import { metricTitle } from '../results/metric-registry.js';
import { textWidth } from './charts.js';
import { paretoFront } from './pareto.js';
import { label, type ParamAxis, type ParamValue } from './sweep-axes.js';
import { ACCENT, DETAIL_LIMITS, formatOf, MUTED, type ViewSpec } from './sweep-charts.js';
import type { SweepReport } from './sweep.js';
import { axisTicks, variation } from './sweep-variation.js';

/** Memory spans this many times over (and never 0): a log axis. */
const LOG_SPAN = 100;

/** Ticks of a log axis from lo to hi: the powers of 10, with 2× and 5× when there are fewer than 3 of them. */
export function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) ticks.push(10 ** e);
  const inside = (t: number) => t >= lo && t <= hi;
  if (ticks.filter(inside).length >= 3) return ticks.filter(inside);
  return ticks.flatMap((t) => [t, 2 * t, 5 * t]).map((t) => Number(t.toPrecision(12))).filter(inside);
}

/** The plot area in px. */
const PLOT = { width: 520, height: 300 };

/** Labels of the frontier: font size in px, gap from the point, and the least a label keeps apart from another. */
const TAG = { fontSize: 10, dx: 6, above: -8, below: 12, margin: 2 };

interface Scale { type: 'log' | 'linear'; domain: [number, number] }

/** Ticks of the linear memory axis: about 8, none printed alike (sweep-variation.ts). */
const MEMORY_TICKS = 8;

/** The memory axis: log when memory spans two orders of magnitude, else linear from a little below the least. */
function memoryScale(mbs: readonly number[]): { scale: Scale; ticks: number[] } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const mb of mbs) { lo = Math.min(lo, mb); hi = Math.max(hi, mb); } // a loop: a spread of 10^5 arguments can overflow the stack
  if (lo > 0 && hi / lo >= LOG_SPAN) return { scale: { type: 'log', domain: [lo / 1.25, hi * 1.25] }, ticks: logTicks(lo, hi) };
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.08;
  const domain: [number, number] = [Math.max(0, lo - pad), hi + pad];
  return { scale: { type: 'linear', domain }, ticks: axisTicks(domain[0], domain[1], MEMORY_TICKS) };
}

/** The least of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k at or above `v`: the top of the duplicates axis (1 when there are none). */
export function niceTop(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return Number(([1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].map((m) => m * p).find((t) => t >= v * (1 - 1e-12)) as number).toPrecision(12));
}

/** Where a value falls on a scale, from 0 to 1. */
function fraction(s: Scale, v: number): number {
  const f = s.type === 'log' ? Math.log : (x: number) => x;
  const [a, b] = [f(s.domain[0]), f(s.domain[1])];
  return b > a ? (f(v) - a) / (b - a) : 0.5;
}

interface Box { x0: number; x1: number; y0: number; y1: number }
const overlaps = (a: Box, b: Box) => a.x0 < b.x1 + TAG.margin && b.x0 < a.x1 + TAG.margin && a.y0 < b.y1 + TAG.margin && b.y0 < a.y1 + TAG.margin;

/** `text` cut with … to at most `px` wide at the labels' size. */
function cut(text: string, px: number): string {
  if (textWidth(text, TAG.fontSize) <= px) return text;
  let t = text;
  while (t.length > 1 && textWidth(`${t}…`, TAG.fontSize) > px) t = t.slice(0, -1);
  return `${t.trimEnd()}…`;
}

/**
 * Places each label beside its point, in order of memory: above or below (alternating, so
 * neighbours overlap less), right of the point or, near the right edge, left of it; inside the plot
 * (clear of the axes) and clear of the labels and frontier points placed before. A label with no
 * such place is left out: its point stays red, and the table lists it.
 */
function placeTags(rows: FrontierRow[], at: (row: FrontierRow) => { x: number; y: number }): void {
  const placed: Box[] = rows.filter((row) => row.front).map((row) => {
    const p = at(row);
    return { x0: p.x - 4, x1: p.x + 4, y0: p.y - 4, y1: p.y + 4 };
  });
  let up = false;
  for (const row of rows.filter((r) => r.tag !== '').sort((a, b) => a.mb - b.mb)) {
    const p = at(row);
    row.tag = cut(row.tag, Math.max(PLOT.width - p.x, p.x) - TAG.dx - 2);
    const w = textWidth(row.tag, TAG.fontSize);
    up = !up;
    const spots: { above: boolean; right: boolean; box: Box }[] = [up, !up].flatMap((above) => [false, true].map((right) => {
      const base = p.y + (above ? TAG.above : TAG.below);
      const x0 = right ? p.x - TAG.dx - w : p.x + TAG.dx;
      return { above, right, box: { x0, x1: x0 + w, y0: base - TAG.fontSize, y1: base + 2 } };
    }));
    const inside = (b: Box) => b.x0 >= 0 && b.x1 <= PLOT.width && b.y0 >= 0 && b.y1 <= PLOT.height - 2;
    const spot = spots.find((s): boolean => inside(s.box) && !placed.some((b) => overlaps(b, s.box)));
    if (!spot) {
      row.tag = '';
      continue;
    }
    placed.push(spot.box);
    row.above = spot.above;
    row.right = spot.right;
    up = spot.above;
  }
}

interface FrontierRow { mb: number; dup: number; lo: number; hi: number; front: boolean; tag: string; above: boolean; right: boolean }

/**
 * Key-store memory (x) against duplicates per 1000 (y) for every point, each with its 95% CI
 * on duplicates; the Pareto-optimal points (none has both less memory and fewer duplicates)
 * highlighted, joined and labelled with their settings (points that coincide share one label).
 */
export function frontierChart(r: SweepReport, axes: readonly ParamAxis[], name = 'frontier'): ViewSpec {
  const front = frontierOf(r);
  const rows: FrontierRow[] = r.points.map((pt, k) => ({
    mb: pt.metrics.key_store_mb, dup: pt.metrics.duplicates_per_1000.value,
    lo: pt.metrics.duplicates_per_1000.ci95[0], hi: pt.metrics.duplicates_per_1000.ci95[1],
    front: front[k] === true, tag: '', above: true, right: false,
  }));
  const tags = new Map<string, ParamValue[][]>(); // the settings of the frontier points at each place on the chart
  r.points.forEach((pt, k) => {
    if (!front[k]) return;
    const where = `${rows[k]?.mb} ${rows[k]?.dup}`;
    tags.set(where, [...(tags.get(where) ?? []), axes.map((a) => pt.params[a.path] ?? null)]);
  });
  for (const row of [...rows].sort((a, b) => a.mb - b.mb)) {
    const where = `${row.mb} ${row.dup}`;
    row.tag = tagOf(axes, tags.get(where) ?? []);
    tags.delete(where);
  }
  const whiskers = rows.length <= DETAIL_LIMITS.frontierWhiskers;
  const memory = memoryScale(rows.map((row) => row.mb));
  const dupTop = niceTop(Math.max(0, ...rows.flatMap((row) => (whiskers ? [row.dup, row.hi] : [row.dup])).filter(Number.isFinite)));
  placeTags(rows, (row) => ({
    x: fraction(memory.scale, row.mb) * PLOT.width,
    y: (1 - fraction({ type: 'linear', domain: [0, dupTop] }, row.dup)) * PLOT.height,
  }));
  const x = {
    field: 'mb', type: 'quantitative', title: metricTitle('key_store_mb'), scale: { ...memory.scale, nice: false, ...(memory.scale.type === 'linear' ? { zero: false } : {}) },
    axis: { ...formatOf(false), values: memory.ticks },
  } as const;
  const dupDomain: number[] = [0, dupTop];
  const y = { field: 'dup', type: 'quantitative', title: metricTitle('duplicates_per_1000'), scale: { domain: dupDomain, nice: false }, axis: formatOf(false) } as const;
  const onFront = [{ filter: 'datum.front' }];
  return {
    title: {
      text: 'Key-store memory against duplicates',
      subtitle: `red: the frontier (no other point has both less memory and fewer duplicates)${whiskers ? '; whiskers: 95% CI' : ''}`,
    },
    description: `Key-store memory against duplicates per 1000 for ${rows.length} points; ${front.filter(Boolean).length} on the frontier`,
    width: PLOT.width, height: PLOT.height, data: { values: rows },
    layer: [
      ...(whiskers ? [{ name: `${name}_ci`, mark: { type: 'rule', color: MUTED, opacity: 0.5 }, encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' } } } as const] : []),
      { name: `${name}_all`, mark: { type: 'point', filled: true, color: MUTED, size: 28 }, encoding: { x, y } },
      { name: `${name}_line`, transform: onFront, mark: { type: 'line', color: ACCENT }, encoding: { x, y, order: { field: 'mb' } } },
      { name: `${name}_front`, transform: onFront, mark: { type: 'point', filled: true, color: ACCENT, size: 60 }, encoding: { x, y } },
      ...([true, false] as const).flatMap((up) => ([false, true] as const).map((right) => ({
        name: `${name}_labels_${up ? 'above' : 'below'}_${right ? 'left' : 'right'}`,
        transform: [{ filter: `datum.tag !== "" && ${up ? '' : '!'}datum.above && ${right ? '' : '!'}datum.right` }],
        mark: { type: 'text' as const, align: right ? 'right' as const : 'left' as const, dx: right ? -TAG.dx : TAG.dx, dy: up ? TAG.above : TAG.below, fontSize: TAG.fontSize },
        encoding: { x, y, text: { field: 'tag' } },
      }))),
    ],
  };
}

/**
 * One label for the frontier points at one place: `retention=30 min, timeout=1 s`; points that
 * differ in one key only list its values (`timeout=500 ms/1 s/2 s`), others count the rest.
 */
export function tagOf(axes: readonly ParamAxis[], settings: readonly ParamValue[][]): string {
  const [first] = settings;
  if (!first) return '';
  const distinct = axes.map((a, i) => [...new Set(settings.map((s) => label(a, s[i] ?? null)))]);
  if (distinct.filter((d) => d.length > 1).length > 1) {
    return `${axes.map((a, i) => `${a.short}=${label(a, first[i] ?? null)}`).join(', ')} (and ${settings.length - 1} more here)`;
  }
  return axes.map((a, i) => `${a.short}=${listed(a, settings.map((st) => st[i] ?? null))}`).join(', ');
}

/** Most values of one key listed in a label; more are summarised: `800 ms … 5 s (12 values)`. */
const LISTED = 3;

/** The distinct values of one key among coinciding points, as a label shows them. */
function listed(axis: ParamAxis, values: readonly ParamValue[]): string {
  const distinct = [...new Map(values.map((v) => [label(axis, v), v])).entries()];
  if (distinct.length <= LISTED) return distinct.map(([text]) => text).join('/');
  if (axis.numeric) distinct.sort((a, b) => (a[1] as number) - (b[1] as number));
  return `${distinct[0]?.[0] ?? ''} … ${distinct.at(-1)?.[0] ?? ''} (${distinct.length} values)`;
}

/**
 * Why the frontier is left out, in the page's words, or null to draw it: when memory or
 * duplicates do not vary across the sweep (sweep-variation.ts), there is nothing to trade, and
 * the chart would be a row of dots under one repeated axis label.
 */
export function frontierLeftOut(r: SweepReport): string | null {
  const mb = variation(r.points.map((pt) => pt.metrics.key_store_mb), false);
  const dup = variation(r.points.map((pt) => pt.metrics.duplicates_per_1000.value), false);
  const same = 'the values agree to the digits an axis prints';
  if (mb && !mb.varies && dup && !dup.varies) {
    return `Not drawn: the steady-state key store is ${mb.text} MB and duplicates per 1000 actions ${dup.text} at every point (${same}): this sweep changes neither.`;
  }
  if (mb && !mb.varies) {
    return `Not drawn: the steady-state key store is ${mb.text} MB at every point (${same}), so this sweep trades no memory against duplicates: the fewest duplicates win. The table below marks the frontier.`;
  }
  if (dup && !dup.varies) {
    return `Not drawn: duplicates per 1000 actions are ${dup.text} at every point (${same}), so no memory buys fewer of them: the least memory wins. The table below marks the frontier.`;
  }
  return null;
}

/** Which points are on the frontier of key-store MB against duplicates per 1000 (both lower is better). */
export function frontierOf(r: SweepReport): boolean[] {
  return paretoFront(r.points.map((pt) => ({ x: pt.metrics.key_store_mb, y: pt.metrics.duplicates_per_1000.value })));
}
