/**
 * Vega-Lite specs rendered to static SVG strings in Node (no browser, no script in the
 * output). vega and vega-lite are loaded on the first render only: `idem-sim run` never
 * pays for them.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Metrics } from '../results/metrics.js';
import { duration, estimateText, num } from './format.js';
import { duplicateSources, noDuplicates } from './duplicate-sources.js';
import { capitalised } from './metric-text.js';
import { metricTitle } from '../results/metric-registry.js';
import { FONT_STACK } from './html.js';


/** Shared look: system fonts, no frame around views, titles left-aligned. */
const CONFIG = {
  font: FONT_STACK,
  customFormatTypes: true, // lets axes use formatType 'duration' and 'num' (registered below)
  view: { stroke: null },
  mark: { aria: false }, // no description per mark (most of a big chart's bytes); the page's table holds the values
  axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', gridColor: '#eaeef2' },
  legend: { labelFontSize: 11, titleFontSize: 11, titleFontWeight: 'normal' },
  title: { fontSize: 13, anchor: 'start', subtitleColor: '#57606a', subtitleFontSize: 11 },
} as const;

type Engine = { vega: typeof import('vega'); compile: typeof import('vega-lite').compile };
let engine: Promise<Engine> | undefined;

function loadEngine(): Promise<Engine> {
  engine ??= Promise.all([import('vega'), import('vega-lite')]).then(([vega, vl]) => {
    // Without a canvas, vega guesses every character 0.8 em wide: long labels then push the
    // SVG wider and axes drop labels that would fit. Replacing textMetrics.width is vega's own
    // hook for this (vl-convert does the same; see vega-scenegraph's textMetrics).
    (vega as unknown as { textMetrics: { width: (item: TextItem, text: unknown) => number } }).textMetrics.width = itemTextWidth;
    // Custom format types: `duration(value)` and `num(value)` in Vega expressions.
    vega.expressionFunction('duration', (v: unknown) => (typeof v === 'number' ? duration(v) : String(v)));
    vega.expressionFunction('num', (v: unknown) => (typeof v === 'number' ? num(v) : String(v)));
    return { vega, compile: vl.compile };
  });
  return engine;
}

interface TextItem { text?: unknown; fontSize?: number; fontWeight?: string | number; limit?: number }

/**
 * Advance widths in em of DejaVu Sans (Debian's system-ui, wider than Helvetica, Segoe UI or
 * San Francisco, so an estimate that errs on the wide side); other characters count 0.62 em.
 */
const EM: [string, number][] = [
  ['iljI\'|!.,:; ', 0.31], ['ft()/[]', 0.37], ['r', 0.41], ['sz', 0.52], ['ckvxy', 0.57], ['_JL', 0.55],
  ['0123456789abdeghnopqu', 0.635], ['FPTYZ', 0.62], ['EKSABRX', 0.68], ['CUVNHD', 0.74], ['GOQ', 0.79],
  ['mw%MW…', 0.95], ['=+×±<>', 0.84],
];
const EM_OF = new Map(EM.flatMap(([chars, w]) => [...chars].map((c) => [c, w] as const)));

/** Width in px of `text` at `fontSize` px, bold 8% wider. */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const c of text) em += EM_OF.get(c) ?? 0.62;
  return em * fontSize * (bold ? 1.08 : 1);
}

/** vega's textMetrics.width: one line of an item (`text`), cut at the item's `limit` as vega cuts it. */
function itemTextWidth(item: TextItem, text: unknown): number {
  const w = item.fontWeight;
  const width = textWidth(text == null ? '' : String(text).trim(), item.fontSize ?? 11, w === 'bold' || (typeof w === 'number' && w >= 600));
  return item.limit !== undefined && item.limit > 0 ? Math.min(width, item.limit) : width;
}

/**
 * A Vega-Lite spec as one standalone SVG document (`<svg xmlns=...>`, white background).
 * The spec's own `config` is laid over the shared one.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const { vega, compile } = await loadEngine();
  const withConfig = { ...spec, config: { ...CONFIG, ...spec.config } } as TopLevelSpec;
  const view = new vega.View(vega.parse(compile(withConfig).spec), { renderer: 'none' });
  try {
    return tidySvg(await view.toSVG());
  } finally {
    view.finalize();
  }
}

/**
 * Smaller SVG, drawn the same: coordinates to 2 decimals (1/100 px), no aria-hidden on the
 * items of a mark (its group is hidden already), and no xlink namespace when nothing uses it
 * (vega declares it for images).
 */
export function tidySvg(svg: string): string {
  const rounded = unhideInHidden(svg).replace(/ (d|transform|x|y|x1|x2|y1|y2|width|height|points)="([^"]*)"/g,
    (_m, name: string, value: string) => ` ${name}="${value.replace(/-?\d+\.\d{3,}(?:e-?\d+)?/g, (n) => String(Number(Number(n).toFixed(2))))}"`);
  return rounded.includes('xlink:href') ? rounded : rounded.replace(/ xmlns:xlink="[^"]*"/, '');
}

/** Drops aria-hidden from elements inside a group hidden already. */
function unhideInHidden(svg: string): string {
  const hidden: boolean[] = [false]; // per open <g>: hidden itself or inside a hidden one
  return svg.replace(/<(\/?)([a-zA-Z]+)([^>]*?)(\/?)>/g, (tag, close: string, name: string, attrs: string, selfClose: string) => {
    const inHidden = hidden.at(-1) === true;
    if (name === 'g' && close) hidden.pop();
    else if (name === 'g' && !selfClose) hidden.push(inHidden || attrs.includes('aria-hidden="true"'));
    return inHidden && name !== 'g' && !close ? tag.replace(' aria-hidden="true"', '') : tag;
  });
}

export interface BreakdownOptions {
  /** Chart title; default "Duplicates per 1000 actions, by source". */
  title?: string;
  /** Width of the bar area in px; default 280. */
  width?: number;
}

/**
 * A small horizontal bar chart, as SVG: duplicates per 1000 actions from transport retries,
 * model re-plans and crash replays (and a trigger's redeliveries, where the run has a trigger),
 * each with its 95% CI as a whisker and its value as text.
 * A run with no duplicate at all (noDuplicates) draws no whiskers: the bars are empty on an
 * axis from 0 to 1, and the text and the subtitle say none, with each upper bound in brackets.
 */
export function breakdownChart(metrics: Pick<Metrics, 'duplicates_per_1000'>, opts: BreakdownOptions = {}): Promise<string> {
  return renderSvg(breakdownSpec(metrics, opts));
}

/** What the breakdown's bars add up to, as the registry names it. */
const DUPLICATES = metricTitle('duplicates_per_1000');

/** The spec behind breakdownChart (pure). */
export function breakdownSpec(metrics: Pick<Metrics, 'duplicates_per_1000'>, opts: BreakdownOptions = {}): TopLevelSpec {
  const rows = duplicateSources(metrics).map(({ label: source, e }) => ({ source, value: e.value, lo: e.ci95[0], hi: e.ci95[1], text: estimateText(e) }));
  const y = { field: 'source', type: 'nominal', sort: rows.map((r) => r.source), title: null } as const;
  const none = noDuplicates(metrics);
  const x = { field: 'value', type: 'quantitative', title: DUPLICATES, scale: { zero: true, ...(none ? { domain: [0, 1] } : {}) } } as const;
  const title = opts.title ?? `${capitalised(DUPLICATES)}, by source`;
  return {
    title: none ? { text: title, subtitle: 'None from any source in this run; in brackets, the 95% upper bound' } : title,
    description: `${capitalised(DUPLICATES)} by source: ${rows.map((r) => `${r.source} ${r.text}`).join('; ')}`,
    width: opts.width ?? 280,
    height: { step: 26 },
    data: { values: rows },
    layer: [
      { name: 'breakdown_bars', mark: { type: 'bar', color: '#d1495b', height: { band: 0.7 } }, encoding: { x, y } },
      ...(none ? [] : [{ name: 'breakdown_ci', mark: { type: 'rule', color: '#1b1f24' }, encoding: { x: { ...x, field: 'lo' }, x2: { field: 'hi' }, y } } as const]),
      { name: 'breakdown_values', mark: { type: 'text', align: 'left', dx: 4, fontSize: 11 }, encoding: { x: { ...x, field: none ? 'value' : 'hi' }, y, text: { field: 'text' } } },
    ],
  };
}
