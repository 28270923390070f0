/** Sweep charts: the HTML and SVG outputs of the real binary. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Metrics } from '../src/results/metrics.js';
import { paretoFront } from '../src/report/pareto.js';
import { cli, marks, urls, withoutNotes } from './helpers.js';

const svgs = (html: string) => html.match(/<svg\b[\s\S]*?<\/svg>/g) ?? [];

const S = 'test/fixtures/tiny.yaml';
const TWO = ['sweep', S, '--vary', 'client.timeout=500ms,1s', '--vary', 'idempotency.scope=call,intent', '--actions', '200'];
const ONE = ['sweep', S, '--vary', 'client.timeout=log:200ms..5s:4', '--actions', '200'];

describe('sweep --format html through the CLI', () => {
  it('two keys: the two heat maps (a cell and its value per point), the frontier and the table; self-contained, small', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sim-html-'));
    const file = join(dir, 'sweep.html');
    const r = cli([...TWO, '--format', 'html', '--out', file]);
    expect(r.status, r.stderr).toBe(0);
    expect(withoutNotes(r.stderr)).toBe(''); // no Vega warnings
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
    expect(withoutNotes(r.stderr)).toBe('');
    const charts = svgs(r.stdout);
    expect(charts).toHaveLength(7); // the 6 metrics that vary and the frontier
    for (const i of [0, 2, 3, 4, 5, 6]) expect(marks(r.stdout, `line${i}_points`)).toBe(4);
    expect(r.stdout).toContain('Lost actions per 1000: 0 at every point'); // line1: none lost at any timeout, so a note, not a chart
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
    expect(withoutNotes(r.stderr)).toBe('');
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
    for (const i of [0, 2, 3, 4, 5, 6]) expect(marks(svg, `line${i}_points`)).toBe(4);
    expect(svg).toContain('not drawn, as they do not vary: Lost actions per 1000: 0 at every point');
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
