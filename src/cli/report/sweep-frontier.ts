/**
 * The frontier chart (pure): key-store memory against duplicates for every point of a sweep,
 * the Pareto-optimal points highlighted, joined and labelled.
 */
import { paretoFront } from './pareto.js';
import { label, type ParamAxis, type ParamValue } from './sweep-axes.js';
import { ACCENT, DETAIL_LIMITS, formatOf, MUTED, type ViewSpec } from './sweep-charts.js';
import type { SweepReport } from './sweep.js';

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

/** The memory axis: log when memory spans two orders of magnitude, else linear from a little below the least. */
function memoryScale(mbs: readonly number[]) {
  const lo = Math.min(...mbs);
  const hi = Math.max(...mbs);
  if (lo > 0 && hi / lo >= LOG_SPAN) return { scale: { type: 'log' as const, domain: [lo / 1.25, hi * 1.25] }, ticks: logTicks(lo, hi) };
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.08;
  return { scale: { type: 'linear' as const, zero: false, nice: true, domain: [Math.max(0, lo - pad), hi + pad] }, ticks: undefined };
}

/**
 * Key-store memory (x) against duplicates per 1000 (y) for every point, each with its 95% CI
 * on duplicates; the Pareto-optimal points (none has both less memory and fewer duplicates)
 * highlighted, joined and labelled with their settings (points that coincide share one label).
 */
export function frontierChart(r: SweepReport, axes: readonly ParamAxis[], name = 'frontier'): ViewSpec {
  const front = frontierOf(r);
  const rows = r.points.map((pt, k) => ({
    mb: pt.metrics.key_store_mb, dup: pt.metrics.duplicates_per_1000.value,
    lo: pt.metrics.duplicates_per_1000.ci95[0], hi: pt.metrics.duplicates_per_1000.ci95[1],
    front: front[k] === true, tag: '', above: true,
  }));
  const tags = new Map<string, ParamValue[][]>(); // the settings of the frontier points at each place on the chart
  r.points.forEach((pt, k) => {
    if (!front[k]) return;
    const where = `${rows[k]?.mb} ${rows[k]?.dup}`;
    tags.set(where, [...(tags.get(where) ?? []), axes.map((a) => pt.params[a.path] ?? null)]);
  });
  let above = false; // labels alternate above and below along the frontier, so neighbours overlap less
  for (const row of [...rows].sort((a, b) => a.mb - b.mb)) {
    const where = `${row.mb} ${row.dup}`;
    row.tag = tagOf(axes, tags.get(where) ?? []);
    tags.delete(where);
    if (row.tag) row.above = above = !above;
  }
  const memory = memoryScale(rows.map((row) => row.mb));
  const x = {
    field: 'mb', type: 'quantitative', title: 'steady-state key store (MB)', scale: memory.scale,
    axis: { ...formatOf(false), ...(memory.ticks ? { values: memory.ticks } : {}) },
  } as const;
  const y = { field: 'dup', type: 'quantitative', title: 'duplicates per 1000 actions', axis: formatOf(false) } as const;
  const onFront = [{ filter: 'datum.front' }];
  return {
    title: {
      text: 'Key-store memory against duplicates',
      subtitle: `red: the frontier (no other point has both less memory and fewer duplicates)${rows.length <= DETAIL_LIMITS.frontierWhiskers ? '; whiskers: 95% CI' : ''}`,
    },
    description: `Key-store memory against duplicates per 1000 for ${rows.length} points; ${front.filter(Boolean).length} on the frontier`,
    width: 520, height: 300, data: { values: rows },
    layer: [
      ...(rows.length <= DETAIL_LIMITS.frontierWhiskers ? [{ name: `${name}_ci`, mark: { type: 'rule', color: MUTED, opacity: 0.5 }, encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' } } } as const] : []),
      { name: `${name}_all`, mark: { type: 'point', filled: true, color: MUTED, size: 28 }, encoding: { x, y } },
      { name: `${name}_line`, transform: onFront, mark: { type: 'line', color: ACCENT }, encoding: { x, y, order: { field: 'mb' } } },
      { name: `${name}_front`, transform: onFront, mark: { type: 'point', filled: true, color: ACCENT, size: 60 }, encoding: { x, y } },
      ...([[true, -8], [false, 12]] as const).map(([up, dy]) => ({
        name: `${name}_labels${up ? '' : '_below'}`, transform: [{ filter: `datum.tag !== "" && ${up ? '' : '!'}datum.above` }],
        mark: { type: 'text' as const, align: 'left' as const, dx: 6, dy, fontSize: 10 }, encoding: { x, y, text: { field: 'tag' } },
      })),
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
  return axes.map((a, i) => `${a.short}=${(distinct[i] ?? []).join('/')}`).join(', ');
}

/** Which points are on the frontier of key-store MB against duplicates per 1000 (both lower is better). */
export function frontierOf(r: SweepReport): boolean[] {
  return paretoFront(r.points.map((pt) => ({ x: pt.metrics.key_store_mb, y: pt.metrics.duplicates_per_1000.value })));
}
