/**
 * Latency data read from the operators' stack (src/ingest/): Prometheus's text exposition and
 * HTTP API answers, OpenTelemetry's metrics (explicit and exponential histograms) and traces
 * exports, duration lists and CSV columns; and a scenario's histogram file, loaded by the CLI
 * under the rules of data files. Errors name the line, never the text of a file a scenario names.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEmpiricalData } from '../src/io/files.js';
import { csvColumn, durationList } from '../src/ingest/durations.js';
import { histogramOfText } from '../src/ingest/histogram-file.js';
import { queryHistogram } from '../src/ingest/prometheus-api.js';
import { parseSelector, unescapeLabel } from '../src/ingest/selector.js';
import { spanDurations } from '../src/ingest/otlp-spans.js';
import { otlpDocuments } from '../src/ingest/otlp-json.js';
import { MAX_JSON_CONTAINERS, MAX_JSON_DEPTH } from '../src/ingest/limits.js';
import { checkedValues, type Source } from '../src/ingest/source.js';
import { histogramQuantile } from '../src/model/latency/histogram-data.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';
import { ROOT } from './helpers.js';

const FIXTURES = join(ROOT, 'test/fixtures/histogram');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const own: Source = { source: 'in.txt', keyPath: '', showNames: true, how: (k) => `with --${k}` };
const named: Source = { ...own, keyPath: 'service.latency.file', showNames: false, how: (k) => `with ${k}:` };
const selector = (text: string) => parseSelector(text, { source: '--metric' }, '');
const errorOf = (f: () => unknown): string => {
  try { f(); } catch (e) { if (e instanceof InputError) return e.message; throw e; }
  throw new Error('no error');
};
const VECTOR_MS = [{ le: 0, count: 6 }, { le: 500, count: 11 }, { le: 1000, count: 14 }, { le: Infinity, count: 19 }];

describe('Prometheus text exposition', () => {
  it('unescapes a label value in one pass: \\\\, \\" and \\n, a backslash before anything else standing for it, before a line end for itself', () => {
    expect(['plain', 'a\\"b', 'x\\ny', '\\\\', 'end\\', 'é\\ü😀', '\\\n'].map(unescapeLabel)).toEqual(['plain', 'a"b', 'x\ny', '\\', 'end\\', 'éü😀', '\\\n']);
    // 10 MB of escapes (a data file under its limit): the regular expression it replaced aborted under a 512 MB heap.
    const big = unescapeLabel('\\"'.repeat(5_000_000));
    expect([big.length, big[0], big.at(-1)]).toEqual([5_000_000, '"', '"']);
  });

  it('reads the series the selector names, the +Inf bucket as the total, the unit from the name', () => {
    const { found, values } = histogramOfText(fixture('metrics.prom'), own, 'prometheus', selector('http_request_duration_seconds{method="GET"}'), undefined);
    expect(values).toEqual(VECTOR_MS);
    expect(histogramQuantile(values, 0.5)).toBeCloseTo(350, 12);
    expect(found).toMatchObject({ name: 'http_request_duration_seconds', unit: 's', unitFrom: "from the metric's name" });
    // _bucket in the selector is the same histogram; a given unit wins over the name's.
    const ms = histogramOfText(fixture('metrics.prom'), own, 'prometheus', selector('http_request_duration_seconds_bucket{method="GET"}'), 'ms');
    expect(ms.values[1]).toEqual({ le: 0.5, count: 11 });
  });

  it('asks which series when several match, showing label sets only of the user\'s own input', () => {
    const text = fixture('metrics.prom');
    const mine = errorOf(() => histogramOfText(text, own, 'prometheus', selector('http_request_duration_seconds'), undefined));
    expect(mine).toMatch(/in\.txt: has 2 series of http_request_duration_seconds with the labels asked for: \{method="GET"\}, \{method="POST"\}\. Name labels that choose one series with --metric/);
    const theirs = errorOf(() => histogramOfText(text, named, 'prometheus', selector('http_request_duration_seconds'), undefined));
    expect(theirs).toMatch(/has 2 series of http_request_duration_seconds with the labels asked for \(first lines 4, 10\)/);
    expect(theirs).not.toMatch(/POST/);
    // Without a metric: a scenario's data file's own name is not shown (the user's own input's is).
    const unnamed = errorOf(() => histogramOfText(text.replaceAll('http_request_duration_seconds', 'SECRET_CANARY_seconds'), named, 'prometheus', undefined, undefined));
    expect(unnamed).toMatch(/has 2 series of its histogram with the labels asked for \(first lines 4, 10\)\. Name labels that choose one series with metric:, such as NAME\{method="GET"\}/);
    expect(unnamed).not.toMatch(/SECRET/);
    expect(errorOf(() => histogramOfText(text, own, 'prometheus', undefined, undefined))).toMatch(/has 2 series of http_request_duration_seconds with the labels asked for/);
    expect(errorOf(() => histogramOfText(text, own, 'prometheus', selector('nope'), undefined))).toMatch(/holds no histogram named nope/);
  });

  it('refuses what is not a cumulative histogram at the line at fault, without echoing it', () => {
    const bad = (lines: string) => errorOf(() => histogramOfText(`# TYPE x histogram\n${lines}`, named, 'prometheus', undefined, undefined));
    expect(bad('x_bucket{le="1"} 5\nx_bucket{le="0.5"} 6\nx_bucket{le="+Inf"} 6\n')).toMatch(/in\.txt:3, key service\.latency\.file: the bounds are not in order/);
    expect(bad('x_bucket{le="0.5"} 6\nx_bucket{le="1"} 5\n')).toMatch(/in\.txt:3, .*the counts are not cumulative/);
    expect(bad('x_bucket{le="0.5"} 0\nx_bucket{le="+Inf"} 0\n')).toMatch(/the histogram is empty/);
    expect(bad('x_bucket{le="0.5"} 1\nx_bucket{le="0.5"} 2\n')).toMatch(/in\.txt:3, .*le=0\.5 of this series is given twice \(lines 2 and 3\)/);
    expect(bad('x_bucket{le="+Inf"} 3\n')).toMatch(/no bucket with a finite bound/);
    const secret = bad('password=hunter2 and more\n');
    expect(secret).toMatch(/in\.txt:2, .*line 2 \(25 characters\) is not a line of the Prometheus text format\. .*format: otlp/);
    expect(secret).not.toMatch(/hunter2/);
  });

  it('refuses more series than it holds, at the line of the one too many', () => {
    const text = Array.from({ length: 10_001 }, (_, i) => `x_bucket{id="${i}",le="1"} 1`).join('\n');
    expect(errorOf(() => histogramOfText(text, named, 'prometheus', undefined, undefined))).toMatch(/in\.txt:10001, .*holds more than 10,000 histogram series, the most read from one input/);
  });

  it('reads OpenMetrics\' # UNIT line, timestamps, exemplars and escapes', () => {
    const text = '# TYPE rpc histogram\n# UNIT rpc milliseconds\nrpc_bucket{path="a\\"b",le="10"} 1 1700000000000 # {trace_id="x"} 3\nrpc_bucket{path="a\\"b",le="+Inf"} 2\n# EOF\ngarbage after the end\n';
    const { found, values } = histogramOfText(text, own, 'prometheus', selector('rpc{path="a\\"b"}'), undefined);
    expect(found.unitFrom).toBe('from the # UNIT line');
    expect(values).toEqual([{ le: 10, count: 1 }, { le: Infinity, count: 2 }]);
  });
});

describe('OpenTelemetry exports', () => {
  it('are refused nested deeper than MAX_JSON_DEPTH or with more than MAX_JSON_CONTAINERS objects and arrays, before JSON.parse builds them', () => {
    // 16 MiB of either made 585-869 MB of objects; a brace inside a string is not counted.
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    expect(errorOf(() => otlpDocuments(deep, own, 'an export'))).toBe(`in.txt:1: nests deeper than ${MAX_JSON_DEPTH} levels. Give an export: an OTLP export nests 7 levels deep; a larger export can be cut into files.`);
    const flat = `[${Array(MAX_JSON_CONTAINERS).fill('{}').join(',')}]`;
    expect(errorOf(() => otlpDocuments(flat, own, 'an export'))).toMatch(/^in\.txt:1: holds more than 1,000,000 objects and arrays\./);
    const inString = `{"a": "${'['.repeat(MAX_JSON_DEPTH + 1)}\\"{"}`;
    expect(otlpDocuments(inString, own, 'an export')).toEqual([{ a: `${'['.repeat(MAX_JSON_DEPTH + 1)}"{` }]);
    expect(otlpDocuments('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH), own, 'an export')).toHaveLength(1);
  });

  it('an explicit-bounds histogram: per-bucket counts made cumulative, the latest cumulative point, the unit ms', () => {
    const { found, values } = histogramOfText(fixture('otlp-metrics.json'), own, 'otlp', selector('http.server.request.duration{http.route="/pay"}'), undefined);
    expect(values).toEqual(VECTOR_MS);
    expect(found.labels.get('service.name')).toBe('payments');
  });

  it('an exponential histogram: buckets (2^k, 2^(k+1)] at scale 0, its zero bucket, delta points summed', () => {
    const { values } = histogramOfText(fixture('otlp-metrics.json'), own, 'otlp', selector('rpc.client.duration'), undefined);
    // zero bucket 1; offset -2: (0.25 s, 0.5 s] 3, (0.5, 1] 1, (1, 2] 5 over both points; an empty bucket starts the first at 0.25 s.
    expect(values).toEqual([{ le: 0, count: 1 }, { le: 250, count: 1 }, { le: 500, count: 4 }, { le: 1000, count: 5 }, { le: 2000, count: 10 }]);
  });

  it('asks which histogram when the export holds several, and reads JSON lines', () => {
    const text = fixture('otlp-metrics.json');
    expect(errorOf(() => histogramOfText(text, own, 'otlp', undefined, undefined))).toMatch(/holds 2 histograms: http\.server\.request\.duration, rpc\.client\.duration\. Choose one with --metric/);
    expect(errorOf(() => histogramOfText(text, named, 'otlp', undefined, undefined))).toMatch(/holds 2 histograms\. Choose one with metric:/);
    // One histogram of two series, in a scenario's data file: its name is not shown.
    type Point = { attributes: { key: string; value: { stringValue: string } }[] };
    type Doc = { resourceMetrics: { scopeMetrics: { metrics: { name: string; histogram?: { dataPoints: Point[] } }[] }[] }[] };
    const one = JSON.parse(text) as Doc;
    for (const rm of one.resourceMetrics) for (const sm of rm.scopeMetrics) sm.metrics = sm.metrics.filter((m) => m.histogram).map((m) => ({ ...m, name: 'SECRET_CANARY' }));
    const points = one.resourceMetrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics.flatMap((m) => m.histogram?.dataPoints ?? [])));
    points[1]!.attributes = [{ key: 'http.route', value: { stringValue: '/refund' } }];
    const unnamed = errorOf(() => histogramOfText(JSON.stringify(one), named, 'otlp', undefined, undefined));
    expect(unnamed).toMatch(/has 2 series of its histogram with the attributes asked for\. Name attributes that choose one series with metric:, such as NAME\{http\.route="\/pay"\}/);
    expect(unnamed).not.toMatch(/SECRET/);
    const lines = `${JSON.stringify(JSON.parse(text))}\n${JSON.stringify(JSON.parse(text))}\n`;
    expect(histogramOfText(lines, own, 'otlp', selector('rpc.client.duration'), undefined).values.at(-1)).toEqual({ le: 2000, count: 20 });
    expect(errorOf(() => histogramOfText('{"resourceMetrics": [', named, 'otlp', undefined, undefined))).toMatch(/in\.txt(:1)?, key service\.latency\.file: is not JSON/);
  });

  it('spans: the durations of one operation, chosen by name', () => {
    const { sorted, name } = spanDurations(fixture('otlp-spans.json'), own, parseSelector('POST /pay', { source: '--metric' }, '', true));
    expect(name).toBe('POST /pay');
    expect([...sorted]).toEqual([90, 120, 200, 250, 260, 300, 310, 420, 800, 1500]);
    expect(errorOf(() => spanDurations(fixture('otlp-spans.json'), own, undefined))).toMatch(/holds spans of 2 names: POST \/pay, SELECT orders/);
  });
});

describe('durations and the HTTP API', () => {
  it('a list (ms, or another unit) and a CSV column (quoted fields, empty cells skipped)', () => {
    expect([...durationList(fixture('durations.txt'), own, 1)].slice(0, 3)).toEqual([90, 120, 200]);
    expect(durationList('0.5\n1.5\n', own, 1000)[1]).toBe(1500);
    expect(errorOf(() => durationList('1\nsecret\n', named, 1))).toMatch(/in\.txt:2, key service\.latency\.file: line 2 \(6 characters\) holds no duration/);
    const csv = csvColumn(fixture('durations.csv'), own, 'duration, ms', 1);
    expect([...csv.sorted]).toEqual([120, 250, 300, 310]);
    expect(csv.skipped).toBe(1);
    expect(errorOf(() => csvColumn(fixture('durations.csv'), own, 'ms', 1))).toMatch(/has no column ms in its header row \(it has 3 columns: id, route, duration, ms\)/);
  });

  it('an instant query\'s vector of le buckets, in any order; refusals say what to ask', () => {
    const sample = (le: string, v: string) => ({ metric: { le }, value: [1700000000.5, v] });
    const answer = { status: 'success', data: { resultType: 'vector', result: [sample('+Inf', '19'), sample('1', '14'), sample('0', '6'), sample('0.5', '11')] } };
    expect(checkedValues(own, queryHistogram(answer, own, undefined))).toEqual(VECTOR_MS);
    expect(errorOf(() => queryHistogram({ status: 'error', error: 'parse error at char 5' }, own, undefined))).toMatch(/refused the query: parse error at char 5\. Ask for the buckets of one histogram/);
    expect(errorOf(() => queryHistogram({ status: 'success', data: { resultType: 'matrix', result: [] } }, own, undefined))).toMatch(/answered a matrix rather than a vector/);
    const two = { status: 'success', data: { resultType: 'vector', result: [{ metric: { le: '1', job: 'a' }, value: [0, '1'] }, { metric: { le: '1', job: 'b' }, value: [0, '1'] }] } };
    expect(errorOf(() => queryHistogram(two, own, undefined))).toMatch(/answered the buckets of 2 series \(\{job="a"\}, \{job="b"\}\)\. Sum them into one with sum by \(le\)/);
  });
});

describe('a scenario\'s histogram file', () => {
  it('is read relative to the scenario, its series chosen by metric:, under the data files\' rules', () => {
    const file = join(FIXTURES, 'scenario.yaml');
    const parsed = parseScenario(readFileSync(file, 'utf8'), file);
    const latency = loadEmpiricalData(parsed.scenario, file, parsed.locate).service.latency;
    expect(latency).toMatchObject({ dist: 'histogram', file: 'metrics.prom', values: VECTOR_MS });
    const dir = join(mkdtempSync(join(tmpdir(), 'idem-sim-histogram-')), 'in');
    mkdirSync(dir);
    writeFileSync(join(dir, '..', 'x.prom'), fixture('metrics.prom'));
    const outside = join(dir, 's.yaml');
    writeFileSync(outside, 'service:\n  latency: {dist: histogram, file: ../x.prom}\n');
    expect(errorOf(() => loadEmpiricalData(parseScenario(readFileSync(outside, 'utf8'), outside).scenario, outside))).toMatch(/the data file .*x\.prom lies outside the scenario file's directory/);
    writeFileSync(join(dir, 'bad.prom'), 'x_bucket{le="1"} 5\nx_bucket{le="2"} 4\n');
    writeFileSync(outside, 'service:\n  latency:\n    dist: histogram\n    file: bad.prom\n    metric: \'x{a}\'\n');
    const p = parseScenario(readFileSync(outside, 'utf8'), outside);
    expect(errorOf(() => loadEmpiricalData(p.scenario, outside, p.locate))).toMatch(/s\.yaml:5:\d+, key service\.latency\.metric: "x\{a\}" has a label matcher that is not label="value"/);
    writeFileSync(outside, 'service:\n  latency: {dist: histogram, file: bad.prom}\n');
    const q = parseScenario(readFileSync(outside, 'utf8'), outside);
    expect(errorOf(() => loadEmpiricalData(q.scenario, outside, q.locate))).toMatch(/bad\.prom:2, key service\.latency\.file: the counts are not cumulative/);
  });
});
