/**
 * `fit --prometheus` against a real Prometheus (Debian's `prometheus` package; .ci/run installs
 * it, test/setup/services.ts checks for it): the test serves a histogram on 127.0.0.1 (plain
 * text /metrics, counts growing by the same served distribution at every scrape), starts
 * Prometheus on a free port of 127.0.0.1 with a temporary TSDB and a scrape every second, waits
 * until it holds three scrapes, and reads the histogram back through the HTTP API with fit. The
 * fitted quantiles must equal the served distribution's within the bucket that holds each, and
 * the buckets the served ones up to one factor. Everything it starts, it stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from './helpers.js';

/** The served distribution: lognormal(median 180 ms, sigma 0.5), 10,000 observations a scrape, in seconds. */
const MEDIAN = 0.18, SIGMA = 0.5, PER_SCRAPE = 10_000;
const BOUNDS = [0.05, 0.1, 0.15, 0.25, 0.35, 0.5, 0.75, 1, 2, 5];
/** Φ, by the error function's series (Abramowitz and Stegun 7.1.26 is too coarse here): erf(x) = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1)). */
function phi(x: number): number {
  const z = x / Math.SQRT2;
  let term = z, sum = z;
  for (let n = 1; n < 200; n++) { term *= -z * z / n; sum += term / (2 * n + 1); }
  return 0.5 * (1 + (2 / Math.sqrt(Math.PI)) * sum);
}
const SERVED = BOUNDS.map((le) => Math.round(PER_SCRAPE * phi((Math.log(le) - Math.log(MEDIAN)) / SIGMA)));
/** The served distribution's quantiles: median e^(z sigma). */
const TRUE_MS = { p50: MEDIAN * 1000, p90: MEDIAN * 1000 * Math.exp(1.2815515655446004 * SIGMA), p99: MEDIAN * 1000 * Math.exp(2.3263478740408408 * SIGMA) };

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-prometheus-'));
let exporter: Server;
let prometheus: ChildProcess | undefined;
let base = '';
let scrapes = 0;

/** A free port of 127.0.0.1 (taken and let go: Prometheus binds it a moment later). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const { port } = s.address() as AddressInfo;
  await new Promise((done) => s.close(done));
  return port;
}

/** The exporter's page: every scrape adds the served distribution once more, so any increase has its shape. */
function page(): string {
  const k = ++scrapes;
  const lines = BOUNDS.map((le, i) => `fit_test_request_duration_seconds_bucket{route="/pay",le="${le}"} ${k * (SERVED[i] as number)}`);
  return ['# TYPE fit_test_request_duration_seconds histogram', ...lines,
    `fit_test_request_duration_seconds_bucket{route="/pay",le="+Inf"} ${k * PER_SCRAPE}`, `fit_test_request_duration_seconds_count{route="/pay"} ${k * PER_SCRAPE}`, ''].join('\n');
}

async function query(q: string): Promise<{ value: [number, string] }[]> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = await res.json() as { data?: { result?: { value: [number, string] }[] } };
  return body.data?.result ?? [];
}

/** Runs the binary without blocking this process (Prometheus scrapes the exporter it serves meanwhile). */
function idemSim(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += String(d); });
    child.stderr.on('data', (d: Buffer) => { stderr += String(d); });
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

beforeAll(async () => {
  exporter = createServer((req, res) => { res.setHeader('content-type', 'text/plain; version=0.0.4'); res.end(req.url === '/metrics' ? page() : ''); });
  await new Promise<void>((done) => exporter.listen(0, '127.0.0.1', done));
  const target = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;
  writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: fit-test\n    static_configs:\n      - targets: ['${target}']\n`);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  prometheus = spawn('prometheus', [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
  // Three scrapes of the histogram in the last 10 s: an increase over them has its shape.
  for (let tries = 0; tries < 240; tries++) {
    const got = await query('count_over_time(fit_test_request_duration_seconds_count[10s])').catch(() => []);
    if (Number(got[0]?.value[1] ?? 0) >= 3) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Prometheus at ${base} held no three scrapes of the exporter within 60 s`);
}, 120_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((done) => prometheus?.once('exit', done));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await new Promise((done) => exporter.close(done));
  rmSync(dir, { recursive: true, force: true });
});

describe('fit --prometheus against a real Prometheus', () => {
  it('reads the buckets of an increase back: the served buckets up to a factor, the served quantiles within a bucket', async () => {
    const r = await idemSim(['fit', '--prometheus', base, '--query', 'sum by (le) (increase(fit_test_request_duration_seconds_bucket[10s]))']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# idem-sim fit: [\d,.]+ observations of the histogram from the query sum by \(le\) \(increase\(fit_test_request_duration_seconds_bucket\[10s\]\)\) at http:\/\/127\.0\.0\.1:\d+\/ \(le in seconds: Prometheus's convention: seconds\)\.\n/);
    const buckets = [...r.stdout.matchAll(/^ {4}- \{le: ([\d.e-]+), count: ([\d.e+]+)\}$/gm)].map((m) => ({ le: Number(m[1]), count: Number(m[2]) }));
    expect(buckets.map((b) => b.le)).toEqual(BOUNDS);
    // increase() extrapolates each bucket by one factor (they are scraped together); counts are printed to 6 digits.
    const factor = (buckets.at(-1) as { count: number }).count / (SERVED.at(-1) as number);
    buckets.forEach((b, i) => expect(Math.abs(b.count - factor * (SERVED[i] as number))).toBeLessThanOrEqual(1e-5 * b.count + 1e-9));
    const said = /The healthy p99 is ([\d.]+)(ms|s) \(p50 ([\d.]+)(ms|s), p90 ([\d.]+)(ms|s)\)/.exec(r.stdout);
    expect(said).not.toBeNull();
    const ms = (n: string, unit: string) => Number(n) * (unit === 's' ? 1000 : 1);
    const fitted = { p99: ms(said?.[1] as string, said?.[2] as string), p50: ms(said?.[3] as string, said?.[4] as string), p90: ms(said?.[5] as string, said?.[6] as string) };
    for (const q of ['p50', 'p90', 'p99'] as const) {
      // The bucket that holds the served quantile: the fitted one lies in it (the printed value has 3 digits: 0.5% more).
      const upper = BOUNDS.find((le) => le * 1000 >= TRUE_MS[q]) as number;
      const lower = BOUNDS[BOUNDS.indexOf(upper) - 1] ?? 0;
      expect(fitted[q], q).toBeGreaterThanOrEqual(lower * 1000 * 0.995);
      expect(fitted[q], q).toBeLessThanOrEqual(upper * 1000 * 1.005);
    }
  });

  it('refuses a query that answers no histogram, quoting Prometheus\'s own error', async () => {
    const bad = await idemSim(['fit', '--prometheus', base, '--query', 'sum by (le) (']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--prometheus http:\/\/127\.0\.0\.1:\d+\/api\/v1\/query: answered HTTP 400: invalid parameter "query": \d+:\d+: parse error: unclosed left parenthesis\. Check the address and, for a query, its PromQL\./);
    const none = await idemSim(['fit', '--prometheus', base, '--query', 'up']);
    expect(none.stderr).toMatch(/answered samples without an le label: they are not a histogram's buckets/);
  });
});
