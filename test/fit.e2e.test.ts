/**
 * `fit` and the histogram form through the binary: --help's examples that need no server, a
 * /metrics page served here, --into a scenario that then runs, a scenario whose latency is a
 * histogram file (its +Inf warning, shards merged byte for byte, a sweep), and refusals; and, as
 * the hostile corpus holds its cases but has no server, a credentialed URL through a server's
 * redirects and echoes, held to the corpus's rules.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, ROOT } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sim-fit-'));
const PAYMENTS = join(ROOT, 'scenarios/metrics/payments.prom');
const FIXTURE = join(ROOT, 'test/fixtures/histogram/scenario.yaml');

describe('fit', () => {
  it("--help's examples run, those that need no Prometheus", () => {
    const help = cli(['fit', '--help'], { cwd: dir }).stdout;
    const lines = (help.split(/^Examples:$/m)[1] ?? '').split('\n').filter((l) => l.startsWith('  idem-sim ')).map((l) => l.trim());
    expect(lines).toHaveLength(3);
    for (const line of lines.filter((l) => !l.includes('--prometheus'))) {
      const r = spawnSync('bash', ['-c', `idem-sim() { "${process.execPath}" "${BIN}" "$@"; }\n${line}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/^# idem-sim fit: [\d,]+ observations of http_request_duration_seconds\{route="\/(pay|refund)"\}/);
    }
  });

  it('reads a /metrics page over HTTP (this process serves it while the binary asks)', async () => {
    const server = createServer((_, res) => res.end(readFileSync(PAYMENTS, 'utf8')));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    const r = await new Promise<{ status: number | null; stdout: string }>((done) => {
      const child = spawn(process.execPath, [BIN, 'fit', '--metrics', url, '--metric', 'http_request_duration_seconds{route="/pay"}', '--form', 'lognormal'], { cwd: ROOT });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => { stdout += String(d); });
      child.on('close', (status) => done({ status, stdout }));
    });
    await new Promise((done) => server.close(done));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^latency: \{median: \d+ms, sigma: 0\.\d+\}$/m);
  });

  it('--into writes the latency into a scenario that then runs, and keeps it whole when it fails', () => {
    const scenario = join(dir, 'refunds.yaml');
    copyFileSync(join(ROOT, 'scenarios/belgavi-refunds.yaml'), scenario);
    const before = readFileSync(scenario, 'utf8');
    const r = cli(['fit', PAYMENTS, '--metric', 'http_request_duration_seconds{route="/refund"}', '--into', scenario]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(`idem-sim: fit: wrote service.latency (the histogram form) into ${scenario}.\n`);
    const after = readFileSync(scenario, 'utf8');
    expect(after.startsWith(before)).toBe(true); // the file had no service:, so it is added at the end
    const run = cli(['run', scenario, '--actions', '2000', '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).results[0].scenario.service.latency).toMatchObject({ dist: 'histogram', total: 3100 });
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'actions: 10\nservice: {latency: {dist: nope}}\n');
    const refused = cli(['fit', PAYMENTS, '--metric', 'http_request_duration_seconds{route="/pay"}', '--into', broken]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^idem-sim: error: .*broken\.yaml:2:\d+, key service\.latency\.dist/);
    expect(refused.stdout).toBe('');
    expect(readFileSync(broken, 'utf8')).toBe('actions: 10\nservice: {latency: {dist: nope}}\n');
  });

  it('refuses a missing file, a second source and a metric the file lacks, in one paragraph', () => {
    expect(cli(['fit', join(dir, 'none.prom')]).stderr).toMatch(/^idem-sim: error: .*none\.prom: the latency data file does not exist\. /);
    expect(cli(['fit', PAYMENTS, '--metrics', 'http://127.0.0.1:9/metrics']).stderr).toMatch(/^idem-sim: error: fit: reads one source at a time\./);
    const none = cli(['fit', PAYMENTS, '--metric', 'nope']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/payments\.prom: holds no histogram named nope\. Check the name \(without _bucket\), with --metric\.\n$/);
  });
});

describe('a scenario whose latency is a histogram file', () => {
  it('warns of the +Inf share, and its shards merge to the whole run byte for byte', () => {
    const whole = cli(['run', FIXTURE, '--json']);
    expect(whole.status, whole.stderr).toBe(0);
    expect(whole.stderr).toMatch(/^idem-sim: warning: .*scenario\.yaml:6:5, key service\.latency\.file: 26\.3% of the histogram's observations lie above its highest bound, 1s/);
    const parts = [1, 2].map((i) => {
      const out = join(dir, `part-${i}.json`);
      expect(cli(['run', FIXTURE, '--shard', `${i}/2`, '--out', out]).status).toBe(0);
      return out;
    });
    const merged = cli(['merge', ...parts, '--json']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(whole.stdout);
  });

  it('sweeps a written histogram\'s total: more observations above the bound, more attempts end unknown', () => {
    const s = join(dir, 'inline.yaml');
    writeFileSync(s, 'actions: 3000\nservice:\n  latency: {dist: histogram, buckets: [{le: 0.1, count: 50}, {le: 0.5, count: 90}], total: 90}\nclient: {timeout: 400ms, retries: 0}\n');
    const r = cli(['sweep', s, '--vary', 'service.latency.total=90,100,120', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const unknown = (JSON.parse(r.stdout) as { points: { metrics: { unknown_outcomes_per_1000: { value: number } } }[] }).points.map((p) => p.metrics.unknown_outcomes_per_1000.value);
    expect(unknown[0]).toBeLessThan(unknown[2] as number);
  });
});

/** The text the hostile corpus's data carry, which no output may show: here the URL's password and token. */
const CANARY = 'SECRET_CANARY';

/** The binary run on `args` in `cwd` while this process serves, to its end. */
function runAsync(args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += String(d); });
    child.stderr.on('data', (d: Buffer) => { stderr += String(d); });
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

describe('fit against a hostile server, as the hostile corpus holds its cases', () => {
  it('shows no credential of a URL through redirects, echoes and answers: refused in one paragraph, or read with them redacted', async () => {
    const password = `pw-${CANARY}`;
    const creds = `alice:${password}`;
    const page = '# TYPE h histogram\nh_bucket{le="0.1"} 10\nh_bucket{le="0.5"} 90\nh_bucket{le="1"} 99\nh_bucket{le="+Inf"} 100\n';
    const server = createServer((req, res) => {
      const port = (server.address() as AddressInfo).port;
      const sent = Buffer.from((req.headers.authorization ?? '').replace('Basic ', ''), 'base64').toString();
      const to = (location: string) => res.writeHead(302, { location }).end();
      switch (new URL(req.url ?? '/', 'http://x').pathname) {
        case '/same': return to(`http://${creds}@127.0.0.1:${port}/metrics`);
        case '/netpath': return to(`//${creds}@127.0.0.1:${port}/metrics`);
        case '/encoded': return to(`http://alice:pw-%53ECRET_CANARY@127.0.0.1:${port}/metrics`);
        case '/chain': return to('/same');
        case '/other': return to(`http://bob:${CANARY}@localhost:${port}/metrics`);
        case '/bad-port': return to(`http://${creds}@127.0.0.1:99999/metrics`);
        case '/bad-bracket': return to(`http://${creds}@[::1/metrics`);
        case '/echo': return res.writeHead(500).end(`no ${req.url} for ${sent} (${req.headers.authorization ?? ''})`);
        case '/labels': return res.end(page.replace(/\{le=/g, `{who="${sent}",url="http://${sent}@h/",le=`));
        default: return res.end(page);
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cwd = mkdtempSync(join(tmpdir(), 'idem-sim-fit-hostile-'));
    const refused: [string, RegExp][] = [
      [`http://${creds}@${base}/same`, /redirects to an address with credentials in it/],
      [`http://${base}/same`, /redirects to an address with credentials in it/],
      [`http://${creds}@${base}/netpath`, /redirects to an address with credentials in it/],
      [`http://${creds}@${base}/encoded`, /redirects to an address with credentials in it/],
      [`http://${creds}@${base}/chain`, /redirects to an address with credentials in it/],
      [`http://${creds}@${base}/other`, /redirects to another host or scheme \(http:\/\/localhost:\d+\/metrics\)/],
      [`http://${creds}@${base}/bad-port`, /redirects to "http:\/\/\*\*\*\*@127\.0\.0\.1:99999", which is not a URL/],
      [`http://${creds}@${base}/bad-bracket`, /redirects to "http:\/\/\*\*\*\*@\[::1", which is not a URL/],
      [`http://${creds}@${base}/echo?token=tok-${CANARY}`, /answered HTTP 500: no \/echo\?token=\*\*\*\* for \*\*\*\* \(Basic \*\*\*\*\)/],
      [`http://${creds}@127.0.0.1:99999/metrics`, /"http:\/\/\*\*\*\*@127\.0\.0\.1:99999" is not a URL/],
    ];
    try {
      for (const [url, problem] of refused) {
        const r = await runAsync(['fit', '--metrics', url], cwd);
        expect(r.status, `${url}\n${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(/^idem-sim: error: --metrics/);
        expect(r.stderr).toMatch(problem);
        expect(r.stderr.trimEnd()).not.toMatch(/\n/); // one paragraph, no stack trace
        expect(r.stdout).toBe('');
        expect(r.stderr + r.stdout).not.toContain(CANARY);
      }
      const read = await runAsync(['fit', '--metrics', `http://${creds}@${base}/labels`], cwd);
      expect(read.status, read.stderr).toBe(0);
      expect(read.stdout.split('\n')[0]).toMatch(/^# idem-sim fit: 100 observations of h\{url="http:\/\/\*\*\*\*@h\/",who="\*\*\*\*"\} from http:\/\/127\.0\.0\.1:\d+\/labels /);
      expect(read.stderr + read.stdout).not.toContain(CANARY);
      expect(readdirSync(cwd)).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
