/** Sweep charts: the Pareto frontier, the specs and the shared pieces of the report page (the outputs of the real binary are in charts.e2e.test.ts). */
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Metrics } from '../src/model/metrics.js';
import { breakdownChart, renderSvg, tidySvg } from '../src/cli/report/charts.js';
import { htmlPage } from '../src/cli/report/html.js';
import { paretoFront, type XY } from '../src/cli/report/pareto.js';
import { paramAxes, thinLabels, type ParamAxis } from '../src/cli/report/sweep-axes.js';
import { chartMetrics, heatMap, RAMPS, valueLabels } from '../src/cli/report/sweep-charts.js';
import { frontierChart, logTicks, niceTop, tagOf } from '../src/cli/report/sweep-frontier.js';
import { renderSweepSvg, wrapCommand } from '../src/cli/report/sweep-html.js';
import type { SweepReport } from '../src/cli/report/sweep.js';
import { marks, sim, urls } from './helpers.js';

describe('paretoFront: lower x and lower y are both better', () => {
  it('a hand-made set', () => {
    const points: XY[] = [
      { x: 1, y: 9 }, // front: least memory
      { x: 2, y: 5 }, // front
      { x: 3, y: 5 }, // dominated by (2, 5): more memory, same duplicates
      { x: 4, y: 1 }, // front
      { x: 4, y: 3 }, // dominated by (4, 1)
      { x: 5, y: 6 }, // dominated by (2, 5)
      { x: 6, y: 0 }, // front: fewest duplicates
      { x: 2, y: 5 }, // a copy of a front point: on it too
      { x: Number.NaN, y: 0 }, // no value: never on the front
    ];
    expect(paretoFront(points)).toEqual([true, true, false, true, false, false, true, true, false]);
    expect(paretoFront([])).toEqual([]);
    expect(paretoFront([{ x: 0, y: 0 }])).toEqual([true]);
  });

  it('agrees with the definition, checked pair by pair', () => {
    const coordinate = fc.integer({ min: 0, max: 6 }); // few values: many ties
    fc.assert(fc.property(fc.array(fc.record({ x: coordinate, y: coordinate }), { maxLength: 30 }), (points) => {
      const dominated = (p: XY) => points.some((q) => q.x <= p.x && q.y <= p.y && (q.x < p.x || q.y < p.y));
      expect(paretoFront(points)).toEqual(points.map((p) => !dominated(p)));
    }));
  });
});

describe('chart specs', () => {
  const metrics = sim('actions: 200\n', 200);
  const report = (params: Record<string, number | string>[], logPaths: string[] = []): SweepReport => ({
    scenario: 's.yaml', paths: Object.keys(params[0] ?? {}), seed: '1', version: 'test', replay: 'idem-sim sweep s.yaml',
    points: params.map((p) => ({ params: p, metrics })), logPaths,
  });

  it('a varied key: continuous for numbers (log for a log range), categories otherwise, durations by key', () => {
    const [timeout, scope] = paramAxes(report([{ 'client.timeout': 100, 'idempotency.scope': 'call' }, { 'client.timeout': 1000, 'idempotency.scope': 'intent' }], ['client.timeout']));
    expect(timeout).toMatchObject({ numeric: true, log: true, duration: true, short: 'timeout', values: [100, 1000] });
    expect(scope).toMatchObject({ numeric: false, log: false, duration: false, values: ['call', 'intent'] });
  });

  it('log ticks: powers of 10, with 2× and 5× over fewer than three decades', () => {
    expect(logTicks(0.5, 2000)).toEqual([1, 10, 100, 1000]);
    expect(logTicks(3, 60)).toEqual([5, 10, 20, 50]);
  });

  it('heat-map cells carry their value as text only while they are large enough to read', () => {
    const grid = (n: number) => report(Array.from({ length: n * n }, (_, k) => ({ a: Math.floor(k / n), b: k % n })));
    const dup = chartMetrics('duplicates_per_1000')[0] as ReturnType<typeof chartMetrics>[number];
    const layers = (n: number) => {
      const r = grid(n);
      return heatMap(r, paramAxes(r) as [ParamAxis, ParamAxis], dup, 'reds', 'h').layer.length;
    };
    expect(layers(4)).toBe(2);
    expect(layers(40)).toBe(1);
  });

  it('points that coincide on the frontier share one label', () => {
    const r = report([{ 'client.retries': 1 }, { 'client.retries': 2 }]);
    const rows = (frontierChart(r, paramAxes(r)).data as { values: { tag: string; front: boolean }[] }).values;
    expect(rows.map((row) => row.front)).toEqual([true, true]);
    expect(rows.map((row) => row.tag)).toEqual(['retries=1/2', '']);
    const [a, b] = paramAxes(report([{ 'client.timeout': 1000, 'idempotency.scope': 'call' }])) as [ParamAxis, ParamAxis];
    expect(tagOf([a, b], [[1000, 'call'], [2000, 'call']])).toBe('timeout=1 s/2 s, scope=call');
    expect(tagOf([a, b], [[1000, 'call'], [2000, 'intent'], [500, 'call']])).toBe('timeout=1 s, scope=call (and 2 more here)');
  });

  it('heat maps run from white at 0 (zero duplicates read as none) to dark', () => {
    const r = report([{ a: 1, b: 1 }, { a: 2, b: 1 }]);
    const dup = chartMetrics('duplicates_per_1000')[0] as ReturnType<typeof chartMetrics>[number];
    const [cells] = heatMap(r, paramAxes(r) as [ParamAxis, ParamAxis], dup, 'reds', 'h').layer;
    const scale = (cells as { encoding: { color: { scale: { domain: number[]; range: string[] } } } }).encoding.color.scale;
    expect(scale.domain[0]).toBe(0);
    expect(scale.range[0]).toBe('#ffffff');
    for (const ramp of Object.values(RAMPS)) expect(ramp[0]).toBe('#ffffff');
  });

  it('a log range of 6 values: a tick and a label at every value, the largest included', () => {
    const [retention] = paramAxes(report([5, 9.44, 17.8, 33.7, 63.5, 120].map((m) => ({ 'idempotency.retention': m * 60_000 })), ['idempotency.retention']));
    const axis = valueLabels(retention as ParamAxis);
    expect(axis.values).toHaveLength(6);
    expect(axis).not.toHaveProperty('labelExpr'); // no label hidden
    expect(axis.labelOverlap).toBe(false);
  });

  it('many values: labels thinned evenly, both ends kept', () => {
    const at = Array.from({ length: 50 }, (_, i) => i * 9); // 50 heat-map rows 9 px apart, labels 13 px high
    const kept = thinLabels(at, () => 13);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(49);
    expect(kept.length).toBeGreaterThan(10);
    const gaps = kept.slice(1, -1).map((k, i) => k - (kept[i] as number));
    expect(new Set(gaps).size).toBe(1); // evenly
    const [timeout] = paramAxes(report(Array.from({ length: 50 }, (_, i) => ({ 'client.timeout': 100 * (i + 1) }))));
    const axis = valueLabels(timeout as ParamAxis);
    expect(axis.values[0]).toBe(100);
    expect(axis.values.at(-1)).toBe(5000);
    expect(axis.values.length).toBeLessThan(12);
  });

  it('frontier labels: many values of one key summarised; a point at 0 duplicates labelled above it, off the axis', () => {
    const [timeout] = paramAxes(report([{ 'client.timeout': 100 }]));
    const values = [800, 1800, 2000, 2500, 3000, 3500, 4000, 4200, 4400, 4600, 4800, 5000];
    expect(tagOf([timeout as ParamAxis], values.map((v) => [v]))).toBe('timeout=800 ms … 5 s (12 values)');
    expect(tagOf([timeout as ParamAxis], [[500], [1000], [2000]])).toBe('timeout=500 ms/1 s/2 s');
    const point = (mb: number, dup: number) => ({ ...metrics, key_store_mb: mb, duplicates_per_1000: { ...metrics.duplicates_per_1000, value: dup, ci95: [dup, dup] as [number, number] } });
    const r: SweepReport = { ...report([]), paths: ['client.timeout'], points: [{ params: { 'client.timeout': 1 }, metrics: point(0, 40) }, { params: { 'client.timeout': 2 }, metrics: point(36, 0) }] };
    const rows = (frontierChart(r, paramAxes(r)).data as { values: { tag: string; above: boolean; right: boolean }[] }).values;
    expect(rows.map((row) => [row.tag, row.above, row.right])).toEqual([['timeout=1 ms', false, false], ['timeout=2 ms', true, true]]);
    expect(niceTop(126)).toBe(150);
    expect(niceTop(0)).toBe(1);
  });

  it('--svg: the command wraps under the title, so a long one does not widen the image; the frontier keeps its title', async () => {
    const three = (replay: string) => ({ ...report([{ a: 1, b: 1, c: 1 }, { a: 2, b: 2, c: 2 }]), replay });
    const width = (svg: string) => Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)?.[1]);
    const long = `idem-sim sweep s.yaml ${Array.from({ length: 12 }, (_, i) => `--vary client.key${i}=1,2,3,4,5`).join(' ')}`;
    const [short, wide] = [await renderSweepSvg(three('idem-sim sweep s.yaml'), 'duplicates_per_1000'), await renderSweepSvg(three(long), 'duplicates_per_1000')];
    expect(width(wide)).toBe(width(short));
    expect(width(wide)).toBeLessThan(700);
    expect(wide).toContain('>Key-store memory against duplicates</text>');
    const lines = wrapCommand(long);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.slice(0, -1).every((line) => line.endsWith(' \\'))).toBe(true);
    expect(lines.map((line) => line.replace(/ \\$/, '')).join(' ')).toBe(long);
  });

  it('--metric outside the headline ones gets a chart of its own', () => {
    expect(chartMetrics('duplicates_per_1000').map((m) => m.path)).toHaveLength(7);
    expect(chartMetrics('dedup_hits_per_1000').map((m) => m.path).at(-1)).toBe('dedup_hits_per_1000');
  });
});

describe('shared pieces for the report page', () => {
  it('breakdownChart: a bar, a CI whisker and a value per source of duplicates', async () => {
    const m: Pick<Metrics, 'duplicates_per_1000'> = sim('actions: 200\nruntime: {crash_probability: 0.1}\n', 2000);
    const svg = await breakdownChart(m);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(marks(svg, 'breakdown_bars')).toBe(3);
    expect(marks(svg, 'breakdown_ci')).toBe(3);
    expect(svg).toContain('crash replays');
    expect(urls(svg)).toEqual([]);
  });

  it('htmlPage: one document, title escaped, no URL', () => {
    const page = htmlPage('a <b> & "c"', '<p>x</p>');
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page).toContain('<title>a &lt;b&gt; &amp; &quot;c&quot;</title>');
    expect(urls(page)).toEqual([]);
  });

  it('tidySvg: coordinates to 2 decimals, text untouched, no unused xlink namespace', async () => {
    expect(tidySvg('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><path d="M1.23456,2.5L3.333333,4" transform="translate(0.12345,1)"/><text x="1.5">0.00123</text></svg>'))
      .toBe('<svg xmlns="http://www.w3.org/2000/svg"><path d="M1.23,2.5L3.33,4" transform="translate(0.12,1)"/><text x="1.5">0.00123</text></svg>');
    const svg = await renderSvg({ data: { values: [{ a: 1 }] }, mark: 'point', encoding: { x: { field: 'a', type: 'quantitative' } } });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });
});
