/**
 * `sweep --format html`: one self-contained page (header, charts as inline SVG, a table of
 * every point); `sweep --svg`: the main chart as one standalone SVG. See docs/charts.md.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { SweepMetric } from '../sweeps/metric.js';
import { renderSvg, textWidth } from './charts.js';
import { num } from './format.js';
import { escapeHtml, htmlPage } from './html.js';
import { printable } from '../scenario/printable.js';
import { label, paramAxes, type ParamAxis } from './sweep-axes.js';
import { chartMetric, chartMetrics, DETAIL_LIMITS, heatMap, lineChart, RAMPS, type ChartMetric, type ViewSpec } from './sweep-charts.js';
import { answerLines, found } from './sweep-find.js';
import { pointCell, readPoint } from './sweep-readings.js';
import { recoverySection } from './sweep-recovery-chart.js';
import { frontierChart, frontierLeftOut, frontierOf } from './sweep-frontier.js';
import { variation } from './sweep-variation.js';
import { backlogColumns, type SweepReport } from './sweep.js';

/** A section of charts; `left` says which charts were left out (a metric that does not vary) and their values. */
interface ChartSection { heading: string; note: string; views: ViewSpec[]; left: string[] }

/** The views of the metrics that vary; for each of the others, a line saying what it is everywhere. */
function drawVarying(r: SweepReport, metrics: readonly ChartMetric[], draw: (m: ChartMetric) => ViewSpec): Pick<ChartSection, 'views' | 'left'> {
  const views: ViewSpec[] = [];
  const left: string[] = [];
  for (const m of metrics) {
    const v = variation(r.points.map((pt) => readPoint(pt, m.path).value), m.duration);
    if (v?.varies) views.push(draw(m));
    else left.push(`${m.title}: ${v ? `${v.text} at every point` : 'no value at any point'}`);
  }
  return { views, left };
}

/** The charts of the varied keys: a line chart per metric for one, heat maps for two, none for more. */
export function keyCharts(r: SweepReport, metric: SweepMetric): ChartSection | null {
  const axes = paramAxes(r);
  const metrics = chartMetrics(metric);
  const [first, second] = axes;
  if (axes.length === 1 && first) {
    return {
      heading: `Metrics against ${first.path}`,
      note: `One chart per metric against ${first.path}${first.values.length <= DETAIL_LIMITS.lineDots ? ', a dot per value' : ''}${first.log ? ' (a log axis: the values are a log range)' : ''}. `
        + `${first.numeric ? 'The band' : 'A whisker'} is the 95% confidence interval. Every point uses the same seed, so the differences between points are the settings', not noise.`,
      ...drawVarying(r, metrics, (m) => lineChart(r, first, m, `line${metrics.indexOf(m)}`)),
    };
  }
  if (axes.length === 2 && first && second) {
    const byPath = (p: SweepMetric) => metrics.find((m) => m.path === p) as ChartMetric;
    const maps: [ChartMetric, keyof typeof RAMPS, string, boolean][] = [[byPath('duplicates_per_1000'), 'reds', 'heat_dup', true], [byPath('key_store_mb'), 'blues', 'heat_mb', true]];
    // An incident's backlog has a heat map of its own, in the recovery's section.
    if (metric !== 'duplicates_per_1000' && metric !== 'key_store_mb' && !metric.startsWith('backlog_cleared_ms.')) maps.push([chartMetric(metric), 'purples', 'heat_metric', false]);
    const drawn = drawVarying(r, maps.map(([m]) => m), (m) => {
      const [, ramp, name, fromZero] = maps.find(([n]) => n === m) as (typeof maps)[number];
      return heatMap(r, [first, second], m, ramp, name, fromZero);
    });
    return {
      heading: `${first.path} × ${second.path}`,
      note: `A cell per point: ${first.path} across, ${second.path} down; darker is higher. The 95% intervals are in the table below.`,
      ...drawn,
    };
  }
  return null;
}

/** The page's words for the charts left out. */
export function leftOutNote(left: readonly string[]): string {
  return `Not drawn, as they do not vary across the sweep (their values agree to the digits an axis prints: a chart would repeat one label and draw only rounding): ${left.join('; ')}.`;
}

/** The spec of `--svg`: the line charts in two columns (one key), the heat maps side by side (two), or the frontier (more). */
export function sweepSvgSpec(r: SweepReport, metric: SweepMetric): TopLevelSpec {
  const keys = keyCharts(r, metric);
  const recovery = recoverySection(r);
  const section = keys && recovery ? { ...keys, views: [...keys.views, ...recovery.views] } : keys;
  const left = section?.left.length ? wrapWords(`not drawn, as they do not vary: ${section.left.join('; ')}`) : [];
  const found = r.find?.length ? answerLines(r, r.find).flatMap((line) => wrapWords(`found: ${line}`)) : [];
  const subtitle = [...wrapCommand(`${r.replay} --svg`), ...found, ...(r.paths.length === 1 ? ['bands and whiskers: 95% confidence intervals'] : []), ...left];
  const title = { text: `idem-sim sweep ${printable(r.scenario ?? '')}`.trimEnd(), subtitle, offset: 14 };
  if (!section || section.views.length === 0) {
    // Without a key chart that varies, duplicates and memory do not both vary: no frontier either.
    const why = frontierLeftOut(r);
    return { title, vconcat: [why ? noteView(wrapWords(why)) : frontierChart(r, paramAxes(r))] }; // the frontier keeps its own title
  }
  // A recovery chart's marks have colour and shape: resolved alike, their legends merge into one.
  const resolve = { scale: { x: 'independent', y: 'independent', color: 'independent', ...(recovery ? { shape: 'independent' as const } : {}) } } as const;
  return r.paths.length === 1
    ? { title, concat: section.views, columns: 2, spacing: 24, resolve }
    : { title, hconcat: section.views, spacing: 24, resolve };
}

/** Lines of text as a chart of its own: what an image says in place of a chart it leaves out. */
function noteView(lines: readonly string[]): ViewSpec {
  return {
    width: COMMAND_WIDTH, height: lines.length * 16, data: { values: lines.map((text, i) => ({ text, i })) },
    layer: [{ mark: { type: 'text', align: 'left', baseline: 'top', fontSize: 11 }, encoding: { y: { field: 'i', type: 'ordinal', axis: null }, x: { value: 0 }, text: { field: 'text' } } }],
  };
}

/** Text in lines of at most `px` at 11 px, broken between words. */
function wrapWords(text: string, px = COMMAND_WIDTH): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && textWidth(`${last} ${word}`, 11) <= px) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** Widest line of the command under the SVG's title, in px (the frontier chart is 520 px wide). */
const COMMAND_WIDTH = 480;

/**
 * A shell command in lines of at most `px` (at the subtitle's 11 px), broken between arguments
 * (a flag stays with its value), each line but the last ending in ` \` so that it pastes as one.
 */
export function wrapCommand(command: string, px = COMMAND_WIDTH): string[] {
  const words = command.match(/(?:'[^']*'|[^\s'])+/g) ?? [];
  const args: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const [w, next] = [words[i] as string, words[i + 1]];
    const paired = w.startsWith('--') && !w.includes('=') && next !== undefined && !next.startsWith('-');
    args.push(paired ? `${w} ${next}` : w);
    if (paired) i++;
  }
  const lines: string[] = [];
  for (const arg of args) {
    const last = lines.at(-1);
    if (last !== undefined && textWidth(`${last} ${arg} \\`, 11) <= px) lines[lines.length - 1] = `${last} ${arg}`;
    else lines.push(arg);
  }
  return lines.map((line, i) => (i < lines.length - 1 ? `${line} \\` : line));
}

export async function renderSweepSvg(r: SweepReport, metric: SweepMetric): Promise<string> {
  return `${await renderSvg(sweepSvgSpec(r, metric))}\n`;
}

export async function renderSweepHtml(r: SweepReport, metric: SweepMetric): Promise<string> {
  const section = keyCharts(r, metric);
  const recovery = recoverySection(r);
  const figures = async (views: ViewSpec[]) => {
    const svgs: string[] = [];
    for (const v of views) svgs.push(`<figure>${await renderSvg(v)}</figure>`); // one at a time: vega is single-threaded anyway
    return `<div class="charts">${svgs.join('\n')}</div>`;
  };
  const note = (text: string, kind = 'note') => `<p class="${kind}">${escapeHtml(text)}</p>`;
  const frontierWhy = frontierLeftOut(r);
  const body = [
    header(r),
    ...(section ? [`<h2>${escapeHtml(section.heading)}</h2>`] : []),
    ...(section?.views.length ? [note(section.note), await figures(section.views)] : []),
    ...(section?.left.length ? [note(leftOutNote(section.left), 'note left-out')] : []),
    ...(recovery ? [`<h2>${escapeHtml(recovery.heading)}</h2>`, note(recovery.note), await figures(recovery.views)] : []),
    '<h2>Key-store memory against duplicates</h2>',
    ...(frontierWhy
      ? [note(frontierWhy, 'note left-out')]
      : [note(`${FRONTIER_NOTE}${r.points.length <= DETAIL_LIMITS.frontierWhiskers ? ` ${WHISKERS_NOTE}` : ''}`), await figures([frontierChart(r, paramAxes(r))])]),
    `<h2>${r.points.length <= TABLE_LIMIT ? 'Every point' : 'The frontier points'}</h2>`,
    dataTable(r, metric),
    `<footer>idem-sim ${escapeHtml(r.version)}; seed ${escapeHtml(r.seed)}. The same command, seed and version give this page byte for byte.</footer>`,
  ];
  return htmlPage(`idem-sim sweep ${printable(r.scenario ?? '')}`.trimEnd(), body.join('\n'));
}

const FRONTIER_NOTE = 'A dot per point of the sweep. The red points are the frontier: no other point has both less key-store memory and fewer '
  + 'duplicates. Choose along the red line the cheapest setting whose duplicates you can accept; the others cost more for nothing.';
const WHISKERS_NOTE = 'Whiskers are the 95% intervals of duplicates: a frontier point whose whisker overlaps a cheaper point\'s may only be lucky.';

/** Most rows in the table; a larger sweep lists its frontier points only (the page stays under 2 MB; CSV has every point). */
export const TABLE_LIMIT = 2000;

function header(r: SweepReport): string {
  const axes = paramAxes(r);
  const actions = r.points.map((p) => p.metrics.primary_actions);
  const lo = Math.min(...actions);
  const hi = Math.max(...actions);
  const unreached = r.points.filter((p) => p.precision && !p.precision.reached).length;
  const facts: [string, string][] = [
    ['scenario', `<code>${escapeHtml(printable(r.scenario ?? 'the lab defaults'))}</code>`],
    ['varied', axes.map(describeAxis).join('<br>')],
    ...(r.find?.length ? [['found', answerLines(r, r.find).map(escapeHtml).join('<br>')] as [string, string]] : []),
    ['points', num(r.points.length)],
    ['actions per point', `${lo === hi ? num(lo) : `${num(lo)} to ${num(hi)} (until --precision was reached)`}${unreached ? `; ${unreached} points stopped at --max-actions before it` : ''}`],
    ['seed', `${escapeHtml(r.seed)} (every point: common random numbers)`],
    ['idem-sim', escapeHtml(r.version)],
  ];
  return [
    `<h1>Sweep of ${escapeHtml(printable(r.scenario ?? 'the lab defaults'))}</h1>`,
    `<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`,
    '<p>Reproduce this page:</p>',
    `<pre><code>${escapeHtml(`${r.replay} --format html`)}</code></pre>`,
  ].join('\n');
}

function describeAxis(a: ParamAxis): string {
  const shown = a.values.map((v) => label(a, v));
  const values = shown.length <= 8 ? shown.join(', ') : `${shown.slice(0, 3).join(', ')}, … ${shown.at(-1) ?? ''}`;
  return `<code>${escapeHtml(a.path)}</code>: ${shown.length} value${shown.length === 1 ? '' : 's'}${a.log ? ' (log range)' : ''}: ${escapeHtml(values)}`;
}

/** Every point: its settings, the headline metrics as the table shows them, and whether it is on the frontier. */
function dataTable(r: SweepReport, metric: SweepMetric): string {
  const axes = paramAxes(r);
  // Each incident's backlog, with its recovery's words, where the points have one (sweep.ts backlogColumns).
  const metrics = [...chartMetrics(metric), ...backlogColumns(r).map(chartMetric)];
  const front = frontierOf(r);
  const breakable = (text: string) => escapeHtml(text).replace(/[./]/g, '$&<wbr>'); // headings wrap after a dot or slash: a narrower table
  const find = r.find?.length ? r.find : undefined;
  const head = [...axes.map((a) => `<th class="param">${breakable(a.path)}</th>`), ...metrics.map((m) => `<th>${breakable(m.heading)}</th>`), '<th>frontier</th>', ...(find ? ['<th>found</th>'] : [])];
  const all = r.points.length <= TABLE_LIMIT;
  const rows = r.points.flatMap((pt, k) => {
    if (!all && !front[k]) return [];
    const cells = [
      ...axes.map((a) => `<td class="param">${escapeHtml(label(a, pt.params[a.path] ?? null))}</td>`),
      ...metrics.map((m) => `<td>${escapeHtml(pointCell(pt, m.path))}</td>`),
      `<td>${front[k] ? 'yes' : ''}</td>`,
      ...(find ? [`<td>${found(pt, find) ? 'yes' : 'no'}</td>`] : []),
    ];
    return [`<tr${front[k] ? ' class="front"' : ''}>${cells.join('')}</tr>`];
  });
  const note = all ? '' : `<p class="note">${num(r.points.length)} points, more than ${num(TABLE_LIMIT)}: the table lists the ${num(rows.length)} on the frontier. --format csv gives every point.</p>`;
  return `${note}<div class="scroll"><table class="data"><thead><tr>${head.join('')}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}
