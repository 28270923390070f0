/**
 * `idem-sim fit` in-process: the fits and their goodness, the advice, the histogram form of
 * durations, --into (comments and layout kept, JSON kept JSON), the HTTP client against a local
 * server (redirects, size, deadline, refusals), and the command's refusals of its options.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTimeoutsOption } from '../src/cli/fit-declare.js';
import { writeInto } from '../src/cli/fit.js';
import { httpGet, MAX_RESPONSE_BYTES, parseUrl } from '../src/remote/http.js';
import { fitSettings } from '../src/cli/fit.js';
import { advice, fits } from '../src/ingest/fit.js';
import { histogramValue } from '../src/ingest/fit-buckets.js';
import { durationText, fitReport, fitText, latencyValue } from '../src/ingest/fit-text.js';
import { phi } from '../src/ingest/stats.js';
import type { Observations } from '../src/ingest/observations.js';
import { compileLatency } from '../src/model/latency.js';
import { chunkRng } from '../src/random/rng.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';
import { parseRunnable } from './helpers.js';

const errorOf = async (f: () => unknown): Promise<string> => {
  try { await f(); } catch (e) { if (e instanceof InputError) return e.message; throw e; }
  throw new Error('no error');
};
const histogramOf = (latency: string): Observations => {
  const l = parseRunnable(`service:\n  latency: ${latency}\n`).service.latency;
  if (l.dist !== 'histogram') throw new Error('not a histogram');
  return { kind: 'histogram', values: l.values, found: { buckets: l.buckets, total: l.total, unit: 's', unitFrom: 'as given', name: 'x', labels: new Map() } };
};
const VECTOR = histogramOf('{dist: histogram, buckets: [{le: 0, count: 6}, {le: 0.5, count: 11}, {le: 1, count: 14}], total: 19}');

/** 10^5 draws of lognormal(300 ms, 0.6), sorted. */
function lognormalDraws(n = 100_000): Observations {
  const sampler = compileLatency({ dist: 'lognormal', median: 300, sigma: 0.6 });
  const rng = chunkRng('fit', 0);
  return { kind: 'durations', sorted: Float64Array.from({ length: n }, () => sampler.sample(rng)).sort(), name: 'draws' };
}

describe('the fits', () => {
  it('recover a lognormal from its draws: the durations\' log mean and log standard deviation', () => {
    const o = lognormalDraws();
    const { lognormal: fit } = fits(o);
    if ('problem' in fit) throw new Error(fit.problem);
    // The MLE's standard errors: ln(median)'s sigma / sqrt(n) = 0.0019 (4 se 0.76%, and printing to 3
    // digits 0.17% more: 1%); sigma's sigma / sqrt(2n) = 0.0013 (4 se 0.0054: 0.006).
    expect(Math.abs(fit.median / 300 - 1)).toBeLessThan(0.01);
    expect(Math.abs(fit.sigma - 0.6)).toBeLessThan(0.006);
    expect(fit.goodness.p).toBeGreaterThan(0.01);
    // p99 of lognormal(300, 0.6) is 300 e^(0.6 * 2.326) = 1213 ms; ln p99 = mu + z sigma has an se of
    // sqrt(sigma^2 / n + z^2 sigma^2 / 2n) = 0.0037 (4 se 1.5%, with printing 2%), where the sample's own p99 had 1.8%.
    const p99 = latencyValue(fitReport(o, 'draws'), 'percentiles') as { p50: string; p99: string };
    expect(Math.abs(parseFloat(p99.p99) / 1.213 - 1)).toBeLessThan(0.02);
  });

  it('fit a known vector exactly: three buckets above 0 ms for two parameters, the zeros apart', () => {
    // 6 at 0 ms, then 5, 3 and 5 in (0, 0.5 s], (0.5 s, 1 s] and above 1 s: the lognormal through
    // them exactly has its median at sqrt(500 * 1000) = 707 ms and ln 2 / sigma = 2 z(8/13), z(8/13) = 0.29338.
    const f = fits(VECTOR);
    expect(f.zero).toBe(6 / 19);
    expect(f.lognormal).toEqual({ median: 707, sigma: +(Math.LN2 / (2 * 0.293381)).toFixed(3), fitted: [expect.any(Object)], goodness: expect.objectContaining({ p: undefined }) });
    // The values fitted, before printing: the search stops within about 1e-6 of them.
    expect(f.lognormal).toMatchObject({ fitted: [{ weight: 1, mu: expect.closeTo(Math.log(Math.sqrt(500 * 1000)), 5), sigma: expect.closeTo(Math.LN2 / (2 * 0.293381), 5) }] });
    expect(f.mixture).toEqual({ problem: 'its five parameters need observations in five buckets or more (3 hold some)' });
    const two = histogramOf('{dist: histogram, buckets: [{le: 0, count: 6}, {le: 0.5, count: 11}, {le: 1, count: 11}], total: 11}');
    expect(fits(two).lognormal).toEqual({ problem: expect.stringMatching(/lie in one bucket, where ever narrower lognormals fit ever better/) });
  });
});

describe('the advice', () => {
  it('is the fit\'s p99 and, for each timeout, the share of attempts over it by the fit and by the data\'s reading (at most the +Inf share beyond the highest bound)', () => {
    const a = advice(VECTOR, fits(VECTOR), [250, 500, 1000, 2000]);
    expect(a.from).toBe('lognormal');
    // Above 0 ms, lognormal(707 ms, 1.18) at the values fitted, not those printed: its p50 is the
    // 0.5 - 6/19 = 0.184 share of the 13/19 above 0 ms, 0.269 of them.
    const [median, sigma] = [Math.sqrt(500 * 1000), Math.LN2 / (2 * 0.29338123212119344)]; // z(8/13) by scipy's norm.ppf
    expect(a.p50.ms).toBeCloseTo(median * Math.exp(sigma * -0.6158), -1);
    expect(a.p99).toEqual({ ms: expect.any(Number), placed: false });
    expect(a.dataP99).toEqual({ ms: 1000, placed: false });
    const fitted = (t: number) => (13 / 19) * phi(-Math.log(t / median) / sigma);
    // The search stops within about 1e-6 of the values fitted: the shares agree to 5 decimals.
    const near = (x: number) => expect.closeTo(x, 5);
    expect(a.timeouts.map((t) => [t.ms, t.share, t.data.share, t.data.atMost])).toEqual([
      [250, near(fitted(250)), near(1 - 8.5 / 19), false], [500, near(fitted(500)), near(8 / 19), false],
      [1000, near(fitted(1000)), near(5 / 19), true], [2000, near(fitted(2000)), near(5 / 19), true],
    ]);
    // Without asking: round values near the p99, two below and three at or above, and the p99 itself.
    const draws = lognormalDraws();
    expect(advice(draws, fits(draws), undefined).timeouts.map((t) => t.ms)).toEqual([500, 1000, expect.closeTo(1213, -2), 2000, 5000, 10000]);
  });

  it('prints YAML that pastes: the chosen form active, the others commented, every line a comment or the latency', () => {
    const report = fitReport(lognormalDraws(), 'draws');
    for (const form of ['histogram', 'lognormal', 'mixture', 'percentiles'] as const) {
      const text = fitText(report, form);
      const pasted = parseScenario(`service:\n${text.split('\n').map((l) => `  ${l}`).join('\n')}`, 'pasted.yaml').scenario.service.latency;
      expect(pasted.dist).toBe(form === 'histogram' || form === 'mixture' ? form : 'lognormal');
      expect(text.split('\n').filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith(' ') && !l.startsWith('latency:'))).toEqual([]);
    }
  });
});

describe('the histogram form of durations', () => {
  it('has bounds at observed durations and exact counts of those at most each', () => {
    const o: Observations = { kind: 'durations', sorted: Float64Array.from([90, 120, 200, 250, 260, 300, 310, 420, 800, 1500]), name: 'x' };
    expect(histogramValue(o)).toEqual({ dist: 'histogram', unit: 'ms', buckets: [90, 120, 200, 250, 260, 300, 310, 420, 800, 1500].map((le, i) => ({ le, count: i + 1 })) });
    const many = histogramValue(lognormalDraws());
    expect(many.buckets.length).toBe(22);
    expect(many.total ?? many.buckets.at(-1)?.count).toBe(100_000);
  });
});

describe('--into', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idem-sim-fit-into-'));
  const value = latencyValue(fitReport(VECTOR, 'v'), 'histogram') as Record<string, unknown>;

  it('sets service.latency, keeping the file\'s comments, its other keys and their layout', () => {
    const file = join(dir, 's.yaml');
    const text = '# the refunds service\nactions: 1000 # enough\nservice:\n  # measured on Monday\n  latency: {median: 300ms, sigma: 0.6}\n  error_rate: 0.01\nruntime:\n  resume_delay: {min: 2m, max: 20m}\n';
    writeFileSync(file, text);
    const next = writeInto(file, value);
    expect(next).toBe('# the refunds service\nactions: 1000 # enough\nservice:\n  # measured on Monday\n  latency:\n    dist: histogram\n    buckets:\n'
      + '      - {le: 0, count: 6}\n      - {le: 0.5, count: 11}\n      - {le: 1, count: 14}\n    total: 19\n  error_rate: 0.01\nruntime:\n  resume_delay: {min: 2m, max: 20m}\n');
    expect(parseScenario(next, file).scenario.service.latency).toMatchObject({ dist: 'histogram', total: 19 });
  });

  it('adds service: where there is none, keeps JSON as JSON, and refuses a scenario idem-sim refuses', async () => {
    const yaml = join(dir, 'bare.yaml');
    writeFileSync(yaml, 'actions: 10\n');
    expect(writeInto(yaml, { median: '228ms', sigma: 0.825 })).toBe('actions: 10\nservice:\n  latency: {median: 228ms, sigma: 0.825}\n');
    const json = join(dir, 's.json');
    writeFileSync(json, '{"actions": 10, "service": {"error_rate": 0.01}}');
    expect(JSON.parse(writeInto(json, { p50: '350ms', p99: '1s' }))).toEqual({ actions: 10, service: { error_rate: 0.01, latency: { p50: '350ms', p99: '1s' } } });
    writeFileSync(yaml, 'actions: 10\nservise: {}\n');
    expect(await errorOf(() => writeInto(yaml, value))).toMatch(/bare\.yaml:2:1, key servise/);
  });

  it('writes a latency under a microsecond in decimals, so a scenario takes it (it was 0ms, which a median may not be)', () => {
    expect([1.234e-7, 5e-4, 0.25, 412, 1234].map(durationText)).toEqual(['0.000000123ms', '0.0005ms', '0.25ms', '412ms', '1.23s']);
    // A lognormal fitted to durations of a few ns (1.82 ns median): the scenario it goes into reads its median back.
    const file = join(dir, 'ns.yaml');
    writeFileSync(file, 'actions: 10\n');
    const latency = parseScenario(writeInto(file, { median: durationText(1.82e-6), sigma: 0.454 }), file).scenario.service.latency as { median: number };
    expect(latency.median).toBe(0.00000182);
  });
});

describe('the HTTP client', () => {
  let server: Server;
  let base = '';
  const never: Set<import('node:http').ServerResponse> = new Set();
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '';
      if (path === '/metrics') { res.end(`auth=${req.headers.authorization ?? 'none'}`); return; }
      if (path === '/hop') { res.writeHead(302, { location: '/metrics' }).end(); return; }
      if (path === '/away') { res.writeHead(302, { location: 'http://192.0.2.1/metrics' }).end(); return; }
      if (path === '/big') { res.writeHead(200, { 'content-length': String(MAX_RESPONSE_BYTES + 1) }).end(); return; }
      if (path === '/endless') { const chunk = Buffer.alloc(1 << 20, 97); const write = () => { while (res.write(chunk)); }; res.on('drain', write); write(); return; }
      if (path === '/hang') { never.add(res); return; }
      res.writeHead(404).end('no such page\u001b[31m here');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of never) res.destroy();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });
  const get = (url: string, timeoutMs = 30_000) => httpGet(parseUrl(url, '--metrics'), { flag: '--metrics', timeoutMs, signal: new AbortController().signal, accept: 'text/plain' });

  it('follows a redirect on its host, sends credentials as Basic authentication and never shows them', async () => {
    expect(await get(`${base}/hop`)).toBe('auth=none');
    expect(await get(`http://me:s3cret@127.0.0.1:${new URL(base).port}/metrics`)).toBe(`auth=Basic ${Buffer.from('me:s3cret').toString('base64')}`);
    const e = await errorOf(() => get(`http://me:s3cret@127.0.0.1:${new URL(base).port}/nope`));
    expect(e).toMatch(/--metrics http:\/\/127\.0\.0\.1:\d+\/nope: answered HTTP 404: no such page\\u001b\[31m here/);
    expect(e).not.toMatch(/s3cret/);
  });

  it('refuses a redirect to another host, an answer too large (declared or streamed), a deadline passed, another scheme', async () => {
    expect(await errorOf(() => get(`${base}/away`))).toMatch(/redirects to another host or scheme \(http:\/\/192\.0\.2\.1\/metrics\)/);
    expect(await errorOf(() => get(`${base}/big`))).toMatch(/answered 16,777,217 bytes, more than the 16,777,216 read/);
    expect(await errorOf(() => get(`${base}/endless`))).toMatch(/answered more than 16,777,216 bytes, the most read/);
    expect(await errorOf(() => get(`${base}/hang`, 300))).toMatch(/did not answer within 300ms/);
    expect(await errorOf(() => get('file:///etc/passwd'))).toMatch(/--metrics: file: is not http or https/);
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    expect(await errorOf(() => get(`http://127.0.0.1:${port}/metrics`))).toMatch(/could not be reached \(ECONNREFUSED\)/);
  });
});

describe('the command line', () => {
  it('refuses no source, two sources, --query alone, --format with a URL, and a bad timeout list', async () => {
    expect(await errorOf(() => fitSettings(undefined, {}))).toMatch(/^fit: needs a source of latencies\. Give one source/);
    expect(await errorOf(() => fitSettings('a.prom', { metrics: 'http://x' }))).toMatch(/reads one source at a time/);
    expect(await errorOf(() => fitSettings(undefined, { prometheus: 'http://x' }))).toMatch(/^--prometheus: needs --query/);
    expect(await errorOf(() => fitSettings(undefined, { metrics: 'http://x', column: 'ms' }))).toMatch(/^--column: is for a file/);
    expect(await errorOf(() => clientTimeoutsOption('1s,2'))).toMatch(/--client-timeouts 2: is not a duration above 0/);
    expect(clientTimeoutsOption('2s, 500ms,2s')).toEqual([500, 2000]);
  });
});

describe('a file, in-process', () => {
  it('a saved /metrics page: the series asked for, its histogram, fits and advice', async () => {
    const { PassThrough } = await import('node:stream');
    const { fitCommand } = await import('../src/cli/fit.js');
    const stdout = new PassThrough(), stderr = new PassThrough();
    const file = join(import.meta.dirname, '../scenarios/metrics/payments.prom');
    const code = await fitCommand(fitSettings(file, { metric: 'http_request_duration_seconds{route="/pay"}' }), { stdout, stderr, env: {} }, new AbortController().signal);
    expect(code).toBe(0);
    const text = String(stdout.read());
    expect(text).toMatch(/^# idem-sim fit: 48,012 observations of http_request_duration_seconds\{route="\/pay"\} from .*payments\.prom \(le in seconds: from the metric's name\)\.\n/);
    expect(text).toContain('    - {le: 0.25, count: 27248}\n');
    expect(text).toContain('  total: 48012\n');
    // The +Inf bucket holds 12 of 48,012: 0.025%. Their likelihood under the lognormal (220 ms, 0.753:
    // 2e-7 above 10 s) is far below the mixture's, which gives them a component of their own: the
    // advice reads the mixture, whose p99 is the lognormal part's, 1.27 s. histogram_quantile spreads
    // the (1 s, 2.5 s] bucket evenly: 1 s + 1.5 s x (47531.9 - 46956) / 1015 = 1.85 s.
    expect(text).toMatch(/# 0\.025% of the observations lie above the highest bound, 10s/);
    expect(text).toMatch(/likelihood ratio is \d+ \(p < 0\.0001 on 3 degrees of freedom\): the lognormal does not fit; the advice reads the mixture/);
    expect(text).toMatch(/The healthy p99 is 1\.27s .*\n.*\n# Prometheus's histogram_quantile reads the p99 as 1\.85s\./);
    expect(stderr.read()).toBeNull();
  });

  it('warns of options the source makes inert', async () => {
    const { PassThrough } = await import('node:stream');
    const { fitCommand } = await import('../src/cli/fit.js');
    const { Given } = await import('../src/cli/settings/given.js');
    const { durationOption } = await import('../src/cli/fit-declare.js');
    const stdout = new PassThrough(), stderr = new PassThrough();
    const file = join(import.meta.dirname, 'fixtures/histogram/otlp-spans.json');
    const opts = { metric: 'POST /pay', unit: Given.parse('s', () => 's' as const), timeout: Given.parse('5s', (t) => durationOption('--timeout', t, 60_000)) };
    expect(await fitCommand(fitSettings(file, opts), { stdout, stderr, env: {} }, new AbortController().signal)).toBe(0);
    expect(String(stderr.read())).toBe('idem-sim: warning: --timeout has no effect: a file is read, not fetched.\nidem-sim: warning: --unit has no effect: spans carry their start and end in ns.\n');
  });
});
