/** Sweep charts: the Pareto frontier, the specs, and the HTML and SVG outputs of the real binary. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
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
import { cli, sim } from './helpers.js';

/** Items drawn by the mark named `name` (Vega-Lite view name + `_marks`): the elements of its group. */
function marks(svg: string, name: string): number {
  const open = svg.indexOf(` ${name}_marks"`);
  if (open < 0) return 0;
  const body = svg.slice(svg.indexOf('>', open) + 1, svg.indexOf('</g>', open));
  return (body.match(/<(path|line|text|rect)\b/g) ?? []).length;
}

const svgs = (html: string) => html.match(/<svg\b[\s\S]*?<\/svg>/g) ?? [];

/** Every URL in a document, once the SVG namespace declarations are set aside. */
const urls = (text: string) => text.replace(/ xmlns(:xlink)?="http:\/\/www\.w3\.org\/(2000\/svg|1999\/xlink)"/g, '').match(/https?:\/\/[^\s"'<>)]*/g) ?? [];

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

const S = 'test/fixtures/tiny.yaml';
const TWO = ['sweep', S, '--vary', 'client.timeout=500ms,1s', '--vary', 'idempotency.scope=call,intent', '--actions', '200'];
const ONE = ['sweep', S, '--vary', 'client.timeout=log:200ms..5s:4', '--actions', '200'];

describe('sweep --format html through the CLI', () => {
  it('two keys: the two heat maps (a cell and its value per point), the frontier and the table; self-contained, small', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-html-'));
    const file = join(dir, 'sweep.html');
    const r = cli([...TWO, '--format', 'html', '--out', file]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(''); // no Vega warnings
    expect(r.stdout).toBe('');
    const html = readFileSync(file, 'utf8');
    expect(Buffer.byteLength(html)).toBeLessThan(2e6);
    expect(urls(html)).toEqual([]);
    expect(html.match(/<script|<link|<img|@import|url\((?!#)/)).toBeNull(); // nothing to fetch (url(#id) is a gradient in the page)
    expect(html).toContain('idem-sim sweep test/fixtures/tiny.yaml --vary client.timeout=500ms,1s --vary idempotency.scope=call,intent --actions 200 --seed 1 --format html');

    const charts = svgs(html);
    expect(charts).toHaveLength(3);
    for (const name of ['heat_dup', 'heat_mb']) {
      expect(marks(html, `${name}_cells`)).toBe(4); // 2 × 2 grid
      expect(marks(html, `${name}_text`)).toBe(4);
    }
    for (const title of ['client.timeout', 'idempotency.scope', 'steady-state key store (MB)', 'duplicates per 1000 actions']) {
      expect(html).toContain(`>${title}</text>`);
    }

    const json = JSON.parse(cli([...TWO, '--format', 'json']).stdout) as { points: { metrics: Metrics }[] };
    const front = paretoFront(json.points.map((p) => ({ x: p.metrics.key_store_mb, y: p.metrics.duplicates_per_1000.value })));
    expect(marks(html, 'frontier_all')).toBe(4);
    expect(marks(html, 'frontier_front')).toBe(front.filter(Boolean).length);
    expect(html.match(/<tr class="front">/g)).toHaveLength(front.filter(Boolean).length);
    expect(html.match(/<tr[ >]/g)).toHaveLength(5); // a header and a row per point
  });

  it('one key: a line chart per headline metric with a dot per value, log axis labelled as durations', () => {
    const r = cli([...ONE, '--format', 'html']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const charts = svgs(r.stdout);
    expect(charts).toHaveLength(8); // 7 metrics and the frontier
    for (let i = 0; i < 7; i++) expect(marks(r.stdout, `line${i}_points`)).toBe(4);
    expect(marks(r.stdout, 'line0_ci')).toBe(1); // one band
    expect(r.stdout).toContain('>200 ms</text>');
    expect(r.stdout).toContain('>5 s</text>');
    expect(r.stdout).toContain('(log range)');
  });

  it('merge --format html of shards gives the unsharded page byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-html-merge-'));
    const parts = [1, 2].map((i) => {
      const file = join(dir, `part-${i}.json`);
      expect(cli([...ONE, '--shard', `${i}/2`, '--out', file]).status).toBe(0);
      return file;
    });
    expect(cli(['merge', ...parts, '--format', 'html']).stdout).toBe(cli([...ONE, '--format', 'html']).stdout);
    expect(cli(['merge', ...parts, '--svg']).stdout).toContain('role-axis');
  });
});

describe('merge of a run\'s parts', () => {
  it('--format html is refused, pointing to idem-sim report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-run-merge-'));
    const parts = [1, 2].map((i) => {
      const file = join(dir, `part-${i}.json`);
      expect(cli(['run', S, '--actions', '200', '--shard', `${i}/2`, '--out', file]).status).toBe(0);
      return file;
    });
    const r = cli(['merge', ...parts, '--format', 'html']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--format html');
    expect(r.stderr).toContain('idem-sim report');
  });
});

describe('sweep --svg through the CLI', () => {
  const parse = (svg: string) => {
    expect(XMLValidator.validate(svg)).toBe(true);
    return new XMLParser({ ignoreAttributes: false }).parse(svg) as { svg: Record<string, unknown> };
  };

  it('two keys: one SVG document with the two heat maps side by side', () => {
    const r = cli([...TWO, '--svg']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(parse(r.stdout).svg['@_xmlns']).toBe('http://www.w3.org/2000/svg');
    expect(svgs(r.stdout)).toHaveLength(1);
    expect(marks(r.stdout, 'heat_dup_cells')).toBe(4);
    expect(marks(r.stdout, 'heat_mb_cells')).toBe(4);
    expect(marks(r.stdout, 'frontier_all')).toBe(0);
    expect(urls(r.stdout)).toEqual([]);
  });

  it('one key: the line charts, each with a dot per value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-svg-'));
    const file = join(dir, 'chart.svg');
    expect(cli([...ONE, '--svg', '--out', file]).status).toBe(0);
    const svg = readFileSync(file, 'utf8');
    parse(svg);
    for (let i = 0; i < 7; i++) expect(marks(svg, `line${i}_points`)).toBe(4);
  });

  it('a log range of 6 values: every value labelled on the key axis, 2 h included', () => {
    const r = cli(['sweep', S, '--vary', 'idempotency.retention=log:5m..2h:6', '--actions', '200', '--svg']);
    expect(r.status, r.stderr).toBe(0);
    for (const v of ['5 min', '9.44 min', '17.8 min', '33.7 min', '1.06 h', '2 h']) expect(r.stdout).toContain(`>${v}</text>`);
  });

  it('--svg with --format csv or --json is bad input: exit 2, the fix, no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-svg-bad-'));
    for (const extra of [['--format', 'csv'], ['--json']]) {
      const r = cli([...TWO, '--svg', ...extra, '--out', join(dir, 'chart.svg')]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('--svg: cannot be combined with');
      expect(r.stderr).toContain('Give --svg alone');
    }
    expect(existsSync(join(dir, 'chart.svg'))).toBe(false);
  });
});
