/**
 * A run's series as hand-drawn SVG (docs/model.md, "Time"): one chart per count, x the run's
 * time in minutes, y the count per second of each bucket; the incident windows shaded and
 * labelled with their names, and each alert on the chart of its metric: its threshold as a
 * dashed line, its firings as red bands. Test contract: `data-series`, `data-incident`,
 * `data-alert` with `data-start-ms` and `data-end-ms` (ms of the run), `data-threshold`.
 */
import { NUM_SERIES, SER, SERIES_NAMES, type SeriesCounts, type SeriesName } from '../model/series.js';
import { duration, num } from './format.js';
import { escapeHtml, FONT_STACK } from './html.js';
import { runTime, timeTicks, valueAxis } from './time-axes.js';

/** What each count is called on its chart. */
export const SERIES_LABELS: Readonly<Record<SeriesName, string>> = {
  arrivals: 'Arrivals of primary actions',
  attempts: 'Attempts sent',
  executions: 'Executions (side effects)',
  duplicates: 'Duplicate executions',
  conflicts_409: '409 answers (key in progress)',
  mismatches_422: '422 answers (different arguments)',
  dedup_hits: 'Stored results replayed',
  timeouts: 'Attempts timed out',
  unknown_outcomes: 'Unknown outcomes returned to the model',
  lost: 'Actions never executed',
  store_unavailable: '503s of the down key store',
  shed: 'Requests shed (queue full, 503)',
  expired: 'Requests expired in the queue (dropped)',
  budget_denied: 'Retries the budget denied',
  breaker_rejected: 'Attempts the breaker rejected',
  started: 'Handlers started (worker throughput)', succeeded: 'Calls returning success (goodput)', throttled: 'Retries throttled',
  deliveries: 'Deliveries (the first of each action included)', dead_lettered: 'Actions dead-lettered (the sender gave up)',
};

export interface ChartIncident { name: string; from: number; to: number }

export interface ChartAlert {
  name: string;
  metric: SeriesName;
  /** Threshold, a rate per second. */
  above: number;
  for: number;
  /** The firings listed (the first MAX_LISTED_FIRINGS), and how many there were. */
  firings: readonly (readonly [number, number])[];
  firing_count: number;
}

export interface SeriesChartInput {
  series: SeriesCounts;
  incidents: readonly ChartIncident[];
  alerts: readonly ChartAlert[];
  /** The load's end (ms, clock.ts's `arrivalSpan`): past it only the calls of earlier actions remain, drawn apart. */
  loadEnd: number;
  /** The time the action timeline is centred on (--at), ms; marked when given. */
  at?: number;
}

/** Width, margins, plot height (px); the plot's top is T with one row above it (an alert's, or the incidents' labels), lower with more (plotTop). */
const W = 560, L = 52, R = 16, T = 58, B = 34, PH = 142;
const PW = W - L - R;
/** Where the plot sits in a chart with at most one row above it (px): x = left + t / (run's span) · width, y = top + height − v / (axis top) · height. */
export const PLOT = { left: L, top: T, width: PW, height: PH } as const;
const LINE = '#0969da', ENVELOPE = '#b6d4f5', ACCENT = '#d1495b', SHADE = '#fbefd5', SHADE_EDGE = '#b7791f', SHADE_TEXT = '#7a4f00';
const GRID = '#eaeef2', DIM = '#57606a';
/** A white outline that keeps a label readable over the line and the bands. */
const HALO = ' stroke="#fff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"';
/** Firings drawn one by one per alert and chart; past it, firings less than a pixel apart are drawn as one band. */
export const MAX_FIRING_MARKS = 300;

const f = (x: number) => (Math.round(x * 10) / 10).toString();

/** The counts with at least one bucket above zero, in SERIES_NAMES order. */
export function nonEmptyCounts(s: SeriesCounts): SeriesName[] {
  return SERIES_NAMES.filter((name) => {
    for (let b = 0; b < s.buckets; b++) if ((s.counts[b * NUM_SERIES + SER[name]] as number) > 0) return true;
    return false;
  });
}

/** One chart per count that is not zero throughout. */
export function seriesCharts(input: SeriesChartInput): { name: SeriesName; svg: string }[] {
  return nonEmptyCounts(input.series).map((name) => ({ name, svg: seriesChart(input, name) }));
}

/** A column of the drawing: buckets [first, last] (one unless the series has more buckets than pixels), their rates. */
export interface Column { start: number; end: number; min: number; max: number; mean: number }

/** The count's rates per second, one column per bucket, or per run of buckets when there are more than `most`. */
export function columns(s: SeriesCounts, name: SeriesName, most = PW): Column[] {
  const perSecond = 1000 / s.step;
  return valueColumns(s.buckets, s.step, (b) => (s.counts[b * NUM_SERIES + SER[name]] as number) * perSecond, most);
}

/** Columns of `buckets` values of `step` ms (`value(b)`), one per bucket, or per run of buckets when there are more than `most`. */
export function valueColumns(buckets: number, step: number, value: (b: number) => number, most = PW): Column[] {
  const per = Math.max(1, Math.ceil(buckets / most));
  const out: Column[] = [];
  for (let first = 0; first < buckets; first += per) {
    const last = Math.min(buckets, first + per);
    let min = Infinity, max = -Infinity, sum = 0;
    for (let b = first; b < last; b++) {
      const v = value(b);
      min = Math.min(min, v);
      max = Math.max(max, v);
      sum += v;
    }
    out.push({ start: first * step, end: last * step, min, max, mean: sum / (last - first) });
  }
  return out;
}

interface Frame {
  x: (ms: number) => number;
  y: (v: number) => number;
  xMax: number;
  yTicks: number[];
  /** The plot's top and the chart's height (px). */
  top: number;
  height: number;
}

/** Alert k's row above the plot (18 px from HEADER down): its name, and under it a strip of its firings. */
const HEADER = 38, ROW = 18;
const rowTop = (k: number) => HEADER + ROW * k;
/** The plot's top (px) under a row per alert, and the incidents' labels' row under them. */
export const plotTop = (alerts: number, incidents: boolean) => Math.max(T, rowTop(alerts + (incidents ? 1 : 0)) + 2);

function frame(input: SeriesChartInput, plot: ChartPlot, alerts: readonly ChartAlert[]): Frame {
  const { series } = input;
  const cols = plot.cols;
  const xMax = Math.max(series.buckets * series.step, cols.at(-1)?.end ?? 0, ...input.incidents.map((w) => w.to), input.at ?? 0, 1);
  const highest = Math.max(...cols.map((c) => c.max), ...alerts.map((a) => a.above * 1.1), 0);
  const { top: yMax, ticks: yTicks } = valueAxis(plot.yTop ?? highest);
  const top = plotTop(alerts.length, input.incidents.length > 0);
  return {
    xMax, yTicks, top, height: top + PH + B,
    x: (ms) => L + (Math.min(Math.max(ms, 0), xMax) / xMax) * PW,
    y: (v) => top + PH - (Math.min(Math.max(v, 0), yMax) / yMax) * PH,
  };
}

function axes(fr: Frame): string {
  const parts: string[] = [];
  for (const v of fr.yTicks) {
    const y = f(fr.y(v));
    parts.push(`<line x1="${L}" x2="${L + PW}" y1="${y}" y2="${y}" stroke="${GRID}"/><text x="${L - 6}" y="${f(fr.y(v) + 4)}" text-anchor="end">${escapeHtml(num(v))}</text>`);
  }
  for (const t of timeTicks(fr.xMax)) {
    const x = f(fr.x(t));
    parts.push(`<line x1="${x}" x2="${x}" y1="${fr.top + PH}" y2="${fr.top + PH + 4}" stroke="${DIM}"/><text x="${x}" y="${fr.top + PH + 16}" text-anchor="middle">${escapeHtml(num(t / 60_000))}</text>`);
  }
  parts.push(`<line x1="${L}" x2="${L + PW}" y1="${fr.top + PH}" y2="${fr.top + PH}" stroke="${DIM}"/>`);
  parts.push(`<text x="${L + PW / 2}" y="${fr.height - 4}" text-anchor="middle">run time (min)</text>`);
  return `<g class="axes" aria-hidden="true">${parts.join('')}</g>`;
}

/** The narrowest an incident's shading is drawn (px): a 20-second pause on a 3-hour axis still shows. */
export const MIN_INCIDENT_PX = 4;

/**
 * The incident windows shaded, at least MIN_INCIDENT_PX wide, each labelled in a row of its own
 * above the plot (no curve crosses it; a label that would run into the one before moves right)
 * with its left edge drawn up to it.
 */
function incidentsSvg(incidents: readonly ChartIncident[], fr: Frame): string {
  const labelY = fr.top - 6;
  let free = L;
  return incidents.map((w) => {
    const x0 = fr.x(w.from), x1 = fr.x(w.to), width = Math.max(MIN_INCIDENT_PX, x1 - x0);
    const chars = w.name.length * 6.2;
    const lx = Math.min(Math.max(x0, free), L + PW - chars);
    free = lx + chars + 8;
    const label = `<text x="${f(lx + 3)}" y="${labelY}" fill="${SHADE_TEXT}"${HALO}>${escapeHtml(w.name)}</text>`;
    return `<g class="incident" data-incident="${escapeHtml(w.name)}" data-from-ms="${w.from}" data-to-ms="${w.to}">`
      + `<title>incident ${escapeHtml(w.name)}: ${escapeHtml(runTime(w.from))} to ${escapeHtml(runTime(w.to))}</title>`
      + `<rect x="${f(x0)}" y="${fr.top}" width="${f(width)}" height="${PH}" fill="${SHADE}"/>`
      + `<path d="M${f(x0)} ${labelY - 9}V${fr.top + PH}M${f(x0 + width)} ${fr.top}v${PH}" stroke="${SHADE_EDGE}" stroke-dasharray="3 3"/>${label}</g>`;
  }).join('');
}

/** The firings as drawn: each one, or past MAX_FIRING_MARKS, those less than a pixel apart merged (with how many each holds). */
export function firingMarks(firings: readonly (readonly [number, number])[], x: (ms: number) => number, most = MAX_FIRING_MARKS): { start: number; end: number; count: number }[] {
  const marks = firings.map(([start, end]) => ({ start, end, count: 1 }));
  if (marks.length <= most) return marks;
  const merged: typeof marks = [];
  for (const m of marks) {
    const last = merged.at(-1);
    if (last && x(m.start) - x(last.end) < 1) { last.end = m.end; last.count += m.count; } else merged.push({ ...m });
  }
  return merged;
}

function alertSvg(a: ChartAlert, row: number, fr: Frame): string {
  const ty = fr.y(a.above);
  const rule = `${a.name}: above ${num(a.above)}/s${a.for > 0 ? ` for ${duration(a.for)}` : ''}`;
  const parts = [
    `<line class="threshold" data-threshold="${escapeHtml(a.name)}" x1="${L}" x2="${L + PW}" y1="${f(ty)}" y2="${f(ty)}" stroke="${ACCENT}" stroke-width="1.2" stroke-dasharray="6 3"/>`,
    `<text x="${L + PW - 2}" y="${f(Math.max(fr.top + 10, ty - 4))}" text-anchor="end" fill="${ACCENT}"${HALO}>${escapeHtml(rule)}</text>`,
    `<text x="${L}" y="${rowTop(row) + 10}" fill="${ACCENT}">${escapeHtml(a.firing_count > 0 ? `${a.name} fired${a.firing_count > a.firings.length ? ` ${num(a.firing_count)} times, the first ${num(a.firings.length)} drawn` : ''}:` : `${a.name} never fired`)}</text>`,
  ];
  for (const m of firingMarks(a.firings, fr.x)) {
    const x0 = fr.x(m.start), w = Math.max(2, fr.x(m.end) - x0);
    const what = m.count > 1 ? `${m.count} firings` : 'fired';
    parts.push(`<g class="firing" data-alert="${escapeHtml(a.name)}" data-start-ms="${m.start}" data-end-ms="${m.end}"${m.count > 1 ? ` data-firings="${m.count}"` : ''}>`
      + `<title>alert ${escapeHtml(a.name)} ${what}: ${escapeHtml(runTime(m.start))} to ${escapeHtml(runTime(m.end))}</title>`
      + `<rect x="${f(x0)}" y="${fr.top}" width="${f(w)}" height="${PH}" fill="${ACCENT}" fill-opacity="0.1"/>`
      + `<rect x="${f(x0)}" y="${rowTop(row) + 12}" width="${f(w)}" height="6" fill="${ACCENT}"/>`
      + '</g>');
  }
  return `<g class="alert">${parts.join('')}</g>`;
}

function lineSvg(cols: readonly Column[], fr: Frame): string {
  let d = '';
  let last = '';
  for (const c of cols) {
    const y = f(fr.y(c.mean));
    if (d === '') d = `M${f(fr.x(c.start))} ${y}`;
    else if (y !== last) d += `V${y}`;
    d += `H${f(fr.x(c.end))}`;
    last = y;
  }
  const envelope = cols.some((c) => c.min !== c.max)
    ? `<path class="envelope" d="${cols.map((c, k) => `${k === 0 ? 'M' : 'L'}${f(fr.x(c.start))} ${f(fr.y(c.max))}H${f(fr.x(c.end))}`).join('')}${[...cols].reverse().map((c) => `L${f(fr.x(c.end))} ${f(fr.y(c.min))}H${f(fr.x(c.start))}`).join('')}Z" fill="${ENVELOPE}"/>`
    : '';
  return `${envelope}<path class="line" d="${d}" fill="none" stroke="${LINE}" stroke-width="1.5"/>`;
}

/** Words for the chart's <desc>: what it shows, its peak, what is shaded and what the alerts did. */
function description(input: SeriesChartInput, plot: ChartPlot, alerts: readonly ChartAlert[]): string {
  const cols = plot.cols;
  const peak = cols.reduce((best, c) => (c.max > best.max ? c : best), cols[0] as Column);
  const buckets = Math.round((cols.at(-1)?.end ?? 0) / input.series.step);
  const merged = cols.length < buckets ? ` Each point is the mean of ${Math.ceil(buckets / cols.length)} buckets, with their lowest to highest as a light band.` : '';
  const words = [`${plot.what}, in buckets of ${duration(input.series.step)}, over ${runTime(cols.at(-1)?.end ?? 0)} of the run; highest ${plot.value(peak.max)} in the bucket ${merged ? 'at about' : 'from'} ${runTime(peak.start)}.${merged}`];
  if (input.incidents.length > 0) words.push(`Shaded and labelled: ${input.incidents.map((w) => `incident ${w.name} from ${runTime(w.from)} to ${runTime(w.to)}`).join('; ')}.`);
  for (const a of alerts) {
    const shown = a.firings.slice(0, 5).map(([s, e]) => `${runTime(s)} to ${runTime(e)}`).join(', ');
    const more = a.firing_count > 5 ? ` and ${num(a.firing_count - 5)} more` : '';
    words.push(`Alert ${a.name} fires above ${num(a.above)}/s (dashed line): ${a.firing_count === 0 ? 'it never fired' : `fired ${num(a.firing_count)} time${a.firing_count > 1 ? 's' : ''}, red bands: ${shown}${more}`}.`);
  }
  if (input.loadEnd < input.series.buckets * input.series.step) words.push(`Grey from ${runTime(input.loadEnd)}: the load has ended (arrivals stop), so the counts fall as the last calls finish.`);
  if (input.at !== undefined) words.push(`The dotted line at ${runTime(input.at)} is the time the action timeline is centred on.`);
  return words.join(' ');
}

/** Past the load's end, shaded grey: the counts fall there because arrivals stop, not because the service did. */
function afterLoadSvg(loadEnd: number, fr: Frame): string {
  if (!(loadEnd < fr.xMax)) return '';
  const x0 = fr.x(loadEnd), x1 = fr.x(fr.xMax);
  return `<g class="after-load" data-load-end-ms="${loadEnd}"><title>the load ends at ${escapeHtml(runTime(loadEnd))}: after it only the calls of actions that arrived before remain</title>`
    + `<rect x="${f(x0)}" y="${fr.top}" width="${f(Math.max(1, x1 - x0))}" height="${PH}" fill="${GRID}"/>`
    + `<text x="${f(x0 - 3)}" y="${fr.top + PH - 4}" text-anchor="end" fill="${DIM}"${HALO}>load ended</text></g>`;
}

function atSvg(at: number | undefined, fr: Frame): string {
  if (at === undefined) return '';
  const x = f(fr.x(at));
  return `<g class="at" data-at-ms="${at}"><path d="M${x} ${fr.top}v${PH}" stroke="#1b1f24" stroke-dasharray="1 2"/><text x="${f(fr.x(at) + 3)}" y="${fr.top + PH - 4}">timeline</text></g>`;
}

/** What one chart draws over the run's time: its columns and its words (`what` and `value` in its <desc>: "Attempts sent (attempts) per second", "12/s"). */
export interface ChartPlot {
  /** The attribute naming it on its <svg> (`data-series`, the test contract) and its value; its elements' ids' stem. */
  attr: string; key: string; id: string;
  /** Its heading, the line under it, its <title>. */
  label: string; subtitle: string; title: string;
  what: string; value: (v: number) => string;
  cols: readonly Column[];
  /** The value axis' top when fixed (a share's 100%); else the highest value's. */
  yTop?: number;
}

/** The chart of one count. */
export function seriesChart(input: SeriesChartInput, name: SeriesName): string {
  return plotChart(input, {
    attr: 'data-series', key: name, id: `series-${name}`,
    label: SERIES_LABELS[name], subtitle: `${name}, count per second in ${duration(input.series.step)} buckets`, title: `${SERIES_LABELS[name]} per second over the run`,
    what: `${SERIES_LABELS[name]} (${name}) per second`, value: (v) => `${num(v)}/s`,
    cols: columns(input.series, name),
  }, input.alerts.filter((a) => a.metric === name));
}

/** A chart of `plot` over the run: the incident windows, the load's end, the alerts given (on its values) and the --at line. */
export function plotChart(input: SeriesChartInput, plot: ChartPlot, alerts: readonly ChartAlert[] = []): string {
  const fr = frame(input, plot, alerts);
  const id = plot.id;
  return `<svg xmlns="http://www.w3.org/2000/svg" class="series-chart" ${plot.attr}="${escapeHtml(plot.key)}" role="img" aria-labelledby="${id}-title ${id}-desc" width="${W}" height="${fr.height}" viewBox="0 0 ${W} ${fr.height}" font-family="${FONT_STACK}" font-size="11">
<title id="${id}-title">${escapeHtml(plot.title)}</title>
<desc id="${id}-desc">${escapeHtml(description(input, plot, alerts))}</desc>
<rect width="${W}" height="${fr.height}" fill="#fff"/>
<text x="8" y="16" font-size="13" font-weight="600">${escapeHtml(plot.label)}</text>
<text x="8" y="31" fill="${DIM}">${escapeHtml(plot.subtitle)}</text>
${incidentsSvg(input.incidents, fr)}
${afterLoadSvg(input.loadEnd, fr)}
${axes(fr)}
${lineSvg(plot.cols, fr)}
${alerts.map((a, k) => alertSvg(a, k, fr)).join('')}
${atSvg(input.at, fr)}
</svg>`;
}
