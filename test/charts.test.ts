/** Sweep charts: the Pareto frontier, the specs and the shared pieces of the report page (the outputs of the real binary are in charts.e2e.test.ts). */
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Metrics } from '../src/results/metrics.js';
import { breakdownChart, renderSvg, tidySvg } from '../src/report/charts.js';
import { htmlPage } from '../src/report/html.js';
import { paretoFront, type XY } from '../src/report/pareto.js';
import { label, paramAxes, thinLabels, type ParamAxis } from '../src/report/sweep-axes.js';
import { chartMetrics, heatMap, lineChart, RAMPS, valueLabels, type ChartMetric } from '../src/report/sweep-charts.js';
import { frontierChart, frontierLeftOut, logTicks, niceTop, tagOf } from '../src/report/sweep-frontier.js';
import { keyCharts, renderSweepHtml, renderSweepSvg, wrapCommand } from '../src/report/sweep-html.js';
import { axisTicks, durationStep, printedStep, variation } from '../src/report/sweep-variation.js';
import { duration, num } from '../src/report/format.js';
import type { SweepReport } from '../src/report/sweep.js';
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
    const differ = (mb: number, dup: number) => ({ ...metrics, key_store_mb: mb, duplicates_per_1000: { ...metrics.duplicates_per_1000, value: dup } });
    const three = (replay: string): SweepReport => ({
      ...report([]), paths: ['a', 'b', 'c'], replay,
      points: [{ params: { a: 1, b: 1, c: 1 }, metrics: differ(1, 20) }, { params: { a: 2, b: 2, c: 2 }, metrics: differ(2, 10) }],
    });
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

describe('a metric that does not vary is not drawn, and no axis repeats a label', () => {
  const base = sim('actions: 200\n', 200);
  /** A sweep of client.timeout whose points have these key-store MB and duplicates per 1000. */
  const sweep = (mbs: number[], dups: number[] = mbs.map((_, i) => 10 * (i + 1))): SweepReport => ({
    scenario: 's.yaml', paths: ['client.timeout'], seed: '1', version: 'test', replay: 'idem-sim sweep s.yaml',
    points: mbs.map((mb, i) => ({
      params: { 'client.timeout': 500 * 2 ** i },
      metrics: { ...base, key_store_mb: mb, duplicates_per_1000: { ...base.duplicates_per_1000, value: dups[i] as number, ci95: [dups[i] as number, dups[i] as number] } },
    })),
  });
  /** The texts of an SVG's axis labels, one list per axis. */
  const axisLabels = (svg: string) => [...svg.matchAll(/role-axis-label"[^>]*>(.*?)<\/g><\/g>/gs)]
    .map((m) => [...(m[1] as string).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => t[1]));

  it('the last printed digit: three significant digits, whole numbers from 100, durations in their unit', () => {
    expect([printedStep(3.2442), printedStep(36), printedStep(12_345), printedStep(0.0012), printedStep(0)]).toEqual([0.01, 0.1, 1, 0.00001, 1e-6]);
    expect([durationStep(250), durationStep(1234), durationStep(90_000)]).toEqual([1, 10, 600]); // 250 ms, 1.23 s, 1.5 min
  });

  it('varies: the values span two printed steps or more (a value rounds by half a step at each end)', () => {
    expect(variation([6.041, 6.043, 6.044, 6.046], false)).toMatchObject({ varies: false, text: 'within 6.04 to 6.05' }); // the axis
    expect(variation([36, 36, null], false)).toMatchObject({ varies: false, text: '36' });
    expect(variation([0, 0], false)?.varies).toBe(false);
    expect(variation([6.04, 6.06], false)?.varies).toBe(true);
    expect(variation([0, 36], false)?.varies).toBe(true);
    expect(variation([1000, 1004], true)).toMatchObject({ varies: false, text: '1 s' });
    expect(variation([null, null], false)).toBeNull();
  });

  it('axis ticks never print alike, and an axis of a varying metric has two or more', () => {
    // Values to a millionth, from about -1000 to 1000 (a sweep's metrics: counts per 1000, MB, ms).
    const value = fc.integer({ min: -1e9, max: 1e9 }).map((i) => i / 1e6);
    fc.assert(fc.property(value, value, fc.integer({ min: 4, max: 12 }), fc.boolean(), (a, b, count, isDuration) => {
      const [lo, hi] = [Math.min(a, b), Math.max(a, b)];
      const ticks = axisTicks(lo, hi, count, isDuration);
      const texts = ticks.map((t) => (isDuration ? duration(t) : num(t)));
      expect(new Set(texts).size).toBe(texts.length);
      expect(ticks.every((t) => t >= lo - 1e-9 && t <= hi + 1e-9)).toBe(true);
      if (variation([lo, hi], isDuration)?.varies) expect(ticks.length).toBeGreaterThanOrEqual(2);
    }));
    expect(axisTicks(0, 38.88, 8)).toEqual([0, 5, 10, 15, 20, 25, 30, 35]); // where vega's own ticks were fine, the same
  });

  it('the frontier of a sweep that does not change memory is left out, and the page says why', async () => {
    const flat = sweep([6.041, 6.043, 6.044, 6.046]);
    expect(frontierLeftOut(flat)).toMatch(/^Not drawn: the steady-state key store is within 6.04 to 6.05 MB at every point .*the fewest duplicates win/);
    expect(frontierLeftOut(sweep([1, 1, 1, 1], [0, 0, 0, 0]))).toContain('this sweep changes neither');
    expect(frontierLeftOut(sweep([1, 2, 3, 4], [0, 0, 0, 0]))).toContain('the least memory wins');
    expect(frontierLeftOut(sweep([0, 12, 24, 36]))).toBeNull();
    const page = await renderSweepHtml(flat, 'duplicates_per_1000');
    expect(page).not.toContain('frontier_all_marks');
    expect(page).toContain('<p class="note left-out">Not drawn: the steady-state key store is within 6.04 to 6.05 MB');
    expect(page).toContain('Steady-state key store (MB): within 6.04 to 6.05 at every point'); // its line chart, left out too
    expect(axisLabels(page)).toHaveLength(2); // the one chart drawn, of duplicates (the only metric that varies here)
    for (const labels of axisLabels(page)) expect(new Set(labels).size).toBe(labels.length);
  });

  it('a memory axis of small but real differences is labelled without repeats', async () => {
    const r = sweep([6.04, 6.05, 6.06, 6.07]);
    expect(frontierLeftOut(r)).toBeNull();
    const svg = await renderSvg(frontierChart(r, paramAxes(r)));
    const [memory] = axisLabels(svg);
    expect(memory?.length).toBeGreaterThanOrEqual(2);
    expect(new Set(memory).size).toBe(memory?.length);
  });

  it('line charts of metrics that do not vary make way for one note; --svg says which', async () => {
    const r = sweep([0, 12, 24, 36]);
    const section = keyCharts(r, 'duplicates_per_1000');
    expect(section?.views.map((v) => v.title)).toEqual(['Duplicates per 1000 actions', 'Steady-state key store (MB)']);
    expect(section?.left).toContain('Lost actions per 1000: 0 at every point');
    const svg = await renderSweepSvg(r, 'duplicates_per_1000');
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('not drawn, as they do not vary: Lost actions per 1000: 0 at every point');
    const nothing = await renderSweepSvg(sweep([1, 1], [0, 0]), 'duplicates_per_1000');
    expect(XMLValidator.validate(nothing)).toBe(true);
    expect(nothing).toContain('Not drawn: the steady-state key store is 1 MB');
  });

  it('a varied key whose values print alike is labelled with every digit: no repeated label, no merged category', async () => {
    const r = sweep([1, 2, 3]);
    r.points.forEach((pt, i) => { pt.params['client.timeout'] = 1000 + i; }); // 1000, 1001, 1002 ms: all "1 s"
    const [timeout] = paramAxes(r);
    expect(timeout).toMatchObject({ exact: true });
    expect(r.points.map((pt) => label(timeout as ParamAxis, pt.params['client.timeout'] ?? null))).toEqual(['1000 ms', '1001 ms', '1002 ms']);
    const svg = await renderSvg(lineChart(r, timeout as ParamAxis, chartMetrics('key_store_mb').at(-1) as ChartMetric, 'l'));
    expect(axisLabels(svg)[0]?.slice(0, 3)).toEqual(['1000 ms', '1001 ms', '1002 ms']); // then the axis title
    expect(paramAxes(sweep([1, 2]))[0]).toMatchObject({ exact: false }); // 500 ms, 1 s
  });

  it('a heat map from its least value has legend ticks that never repeat', () => {
    const r: SweepReport = { ...sweep([]), paths: ['a', 'b'], points: [[6.041, 1, 1], [6.05, 1, 2], [6.07, 2, 1], [6.083, 2, 2]].map(([mb, a, b]) => ({ params: { a: a as number, b: b as number }, metrics: { ...base, key_store_mb: mb as number } })) };
    const mb = { path: 'key_store_mb', title: 'MB', heading: 'MB', duration: false } as const;
    const [cells] = heatMap(r, paramAxes(r) as [ParamAxis, ParamAxis], mb, 'purples', 'h', false).layer;
    const values = (cells as { encoding: { color: { legend: { values: number[] } } } }).encoding.color.legend.values;
    expect(values.length).toBeGreaterThanOrEqual(2);
    expect(new Set(values.map(num)).size).toBe(values.length);
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

  it('breakdownChart with no duplicate: no whiskers across the axis, empty bars on 0 to 1, and the text says none', async () => {
    // 4,000 actions with no duplicate: each source reads 0 with its 95% upper bound 0.75 (3/n per 1000).
    const zero = { value: 0, ci95: [0, 0.75] as [number, number] };
    const svg = await breakdownChart({ duplicates_per_1000: { ...zero, transport: zero, replan: zero, replay: zero } });
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(marks(svg, 'breakdown_ci')).toBe(0);
    expect(svg).toContain('None from any source in this run; in brackets, the 95% upper bound');
    expect(svg.match(/>0 \(≤ 0\.75\)</g)).toHaveLength(3);
    expect(svg).toMatch(/>1\.0<\/text>/); // the axis runs to 1, not to the upper bound
    // One source with a duplicate: every source keeps its interval.
    const some = await breakdownChart({ duplicates_per_1000: { value: 2, ci95: [1, 3], transport: { value: 2, ci95: [1, 3] }, replan: zero, replay: zero } });
    expect(marks(some, 'breakdown_ci')).toBe(3);
    expect(some).not.toContain('None from any source');
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
