/**
 * A sweep's report written as its points finish (report/sweep-stream.ts, docs/sweeps.md
 * "Memory"): the columns each point's scenario foretells are the ones it finishes with; a table,
 * page and SVG drawn from slim points are the bytes whole points give; CSV reaches standard
 * output a row at a time, --out only whole; the JSON's --find answers come before points that
 * waited in a spool. Byte for byte against earlier releases: test/golden.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { runScenario } from '../src/exec/runner.js';
import { simulate } from '../src/exec/simulate.js';
import { Interrupted } from '../src/exec/interrupted.js';
import { alertsOnly, timeResults } from '../src/results/time-results.js';
import type { Metrics } from '../src/results/metrics.js';
import { plannedShape, pointShape, SweepColumns } from '../src/report/sweep-columns.js';
import { renderSweepJson } from '../src/report/sweep-json.js';
import { renderSweep, SWEEP_REPORTERS } from '../src/report/sweep-reporters.js';
import { csvWriter } from '../src/report/sweep-csv.js';
import { memorySink } from '../src/report/sweep-stream.js';
import type { SweepPointResult, SweepReport } from '../src/report/sweep.js';
import { parseFind } from '../src/sweeps/find.js';
import type { SweepMetric } from '../src/sweeps/metric.js';
import { command } from './command-line.js';
import { parseRunnable, removeScratch, ROOT, scratch, sim } from './helpers.js';

const chalk = new Chalk({ level: 0 });

/** A coupled service with an incident and an alert, small enough to run in a moment. */
const COUPLED = `load: {rate_per_s: 5, duration: 4m}
service: {capacity: {workers: 4}}
incidents: [{name: pause, from: 1m, to: 70s, service: {capacity: {workers: 0}}}]
alerts: [{name: slow, metric: timeouts, above: 0.5, for: 10s}]
`;

describe('the columns a point\'s scenario foretells', () => {
  it.each([
    ['the lab defaults', 'actions: 300\n'],
    ['incidents and an alert', 'load: {duration: 3m}\nincidents: [{name: w, from: 1m, to: 2m, service: {latency_multiplier: 4}}]\nalerts: [{name: a, metric: timeouts, above: 1}]\n'],
    ['a worker pool, an incident, an alert', COUPLED],
    ['a retry budget alone', 'actions: 300\nclient: {retry_budget: aws-standard}\n'],
    ['retry throttling', 'actions: 300\nclient: {retry_throttle: {max_tokens: 10, token_ratio: 0.1}}\n'],
  ])('%s: the empty run\'s are the finished run\'s', async (_name, yaml) => {
    const s = parseRunnable(yaml);
    const { state } = await runScenario({ scenario: s, seed: '1', threads: 1 }); // as the sweep runs a point
    expect(pointShape({ metrics: state.finish(s), ...alertsOnly(timeResults(s, state, false)) })).toEqual(plannedShape(s));
  });

  it('summed point by point, they are the columns of every point at once', () => {
    const plain = { metrics: sim('actions: 100\n', 100) };
    const coupled = { metrics: simulate(parseRunnable(COUPLED), '1').metrics, alerts: [{ name: 'slow', firing_count: 1, detection_delay_ms: { pause: 10 }, recovery_ms: { pause: 0 }, false_alarms: 0 }] };
    const columns = new SweepColumns();
    for (const pt of [plain, coupled, plain]) columns.add(pointShape(pt));
    expect(columns.coupled).toBe(true);
    expect(columns.saturation).toEqual(['stable', 'overload_episodes', 'backlog_cleared_ms.pause', 'recovered.pause', 'recovery.pause']);
    expect(columns.alerts.map((a) => a.path)).toEqual(['alerts.slow.detection_delay_ms.pause', 'alerts.slow.recovery_ms.pause', 'alerts.slow.false_alarms', 'alerts.slow.firings']);
    const whole = SweepColumns.of([plain, coupled, plain]);
    expect([whole.coupled, whole.saturation, whole.alerts]).toEqual([columns.coupled, columns.saturation, columns.alerts]);
  });
});

const base = sim('actions: 400\n', 400);
const MIN = 60_000;

/** A coupled point: `workers`, its readings of the incident `pause` and of the alert `slow`. */
function coupledPoint(workers: number, retries: number, backlog: number, recovery: NonNullable<Metrics['recovery']>[string]): SweepPointResult {
  const k = workers / 100;
  return {
    params: { 'service.capacity.workers': workers, 'client.retries': retries },
    metrics: {
      ...base, duplicates_per_1000: { ...base.duplicates_per_1000, value: 50 / k, ci95: [40 / k, 60 / k] }, key_store_mb: k,
      shed_per_1000: { value: 3 * k, ci95: [1, 5] }, expired_per_1000: { value: 0, ci95: [0, 1] }, budget_denied_per_1000: { value: 0, ci95: [0, 1] }, breaker_rejected_per_1000: { value: 0, ci95: [0, 1] },
      queue_wait_ms: { p50: 0, p95: 40 * k, p99: 90 }, utilisation: 0.9 / k, load_end_ms: 30 * MIN, saturated_share: 0.2, offered_utilisation: 0.5, peak_offered_utilisation: 0.6,
      backlog_cleared_ms: { pause: backlog }, recovered: { pause: recovery === 'recovered' }, overload_episodes: recovery === 'stormed_before' ? [[5 * MIN, 12 * MIN]] : [], stable: recovery !== 'stormed_before', recovery: { pause: recovery },
    },
    alerts: [{ name: 'slow', firing_count: retries, detection_delay_ms: { pause: retries > 1 ? 20_000 : null }, recovery_ms: { pause: 60_000 * retries }, false_alarms: retries - 1 }],
  };
}

const REPORT = { scenario: 's.yaml', seed: '1', version: 'v', replay: 'idem-sim sweep s.yaml' };
const grid = (cells: [number, number, number, NonNullable<Metrics['recovery']>[string]][], keys: 1 | 2, find: string[] = []): SweepReport => ({
  ...REPORT, paths: keys === 1 ? ['service.capacity.workers'] : ['service.capacity.workers', 'client.retries'],
  points: cells.map(([w, r, b, rec]) => coupledPoint(w, r, b, rec)), ...(find.length ? { find: find.map(parseFind) } : {}),
});
const ONE_KEY = grid([[20, 1, 30_000, 'stormed_before'], [100, 2, 1_373_167, 'not_recovered'], [150, 3, 42_380, 'recovered']], 1, ['backlog_cleared_ms.pause<=60s']);
const TWO_KEYS = grid([[100, 1, 61_007, 'recovered'], [100, 3, 90_000, 'at_load_end'], [150, 1, 42_380, 'recovered'], [150, 3, 0, 'recovered']], 2, ['stable==true']);
const THREE_KEYS: SweepReport = { ...REPORT, paths: ['client.timeout', 'idempotency.retention', 'client.retries'], points: [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({ params: { 'client.timeout': 500 * (1 + (i >> 2)), 'idempotency.retention': 60_000 * (1 + ((i >> 1) & 1)), 'client.retries': 1 + (i & 1) }, metrics: { ...base, key_store_mb: i } })) };

describe('a table, a page and an SVG drawn from slim points', () => {
  const cases: [string, SweepReport, SweepMetric][] = [
    ['one key, --find on a backlog', ONE_KEY, 'duplicates_per_1000'],
    ['one key, an alert\'s reading charted', ONE_KEY, 'alerts.slow.recovery_ms.pause'],
    ['two keys, a backlog\'s heat map', TWO_KEYS, 'backlog_cleared_ms.pause'],
    ['two keys, a capacity metric', TWO_KEYS, 'utilisation'],
    ['three keys', THREE_KEYS, 'lost_per_1000'],
  ];
  it.each(cases)('table: %s', async (_name, r, metric) => {
    expect(await renderSweep(r, 'table', metric, chalk)).toBe(await SWEEP_REPORTERS.table.render(r, metric, chalk));
  });
  // vega draws these (the richest three), numbering its gradients over the process: each render's from its first.
  const renumbered = (svg: string) => svg.replace(/gradient_\d+/g, 'gradient');
  it.each(cases.slice(0, 3))('HTML and SVG: %s', async (_name, r, metric) => {
    for (const format of ['html', 'svg'] as const) expect(renumbered(await renderSweep(r, format, metric, chalk))).toBe(renumbered(await SWEEP_REPORTERS[format].render(r, metric, chalk)));
  });
});

describe('CSV and JSON a point at a time', () => {
  it('the CSV\'s header, then a row as each point is given, nothing kept', () => {
    const parts: string[] = [];
    const { points, ...head } = ONE_KEY;
    const writer = csvWriter({ ...head, columns: SweepColumns.of(points) }, memorySink(parts));
    expect(parts).toHaveLength(1);
    for (const pt of ONE_KEY.points) writer.point(pt);
    writer.end();
    expect(parts).toHaveLength(4);
    expect(parts.join('')).toBe(SWEEP_REPORTERS.csv.render(ONE_KEY, 'duplicates_per_1000', chalk));
  });

  it('with --find, the answers come first and the points after, as JSON.stringify writes the whole', () => {
    const text = renderSweepJson(ONE_KEY);
    const doc = JSON.parse(text) as { find: { answers: { least: number }[] }; points: { found: boolean }[] };
    expect(doc.find.answers[0]?.least).toBe(150);
    expect(doc.points.map((p) => p.found)).toEqual([false, false, true]);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  });
});

/** A sweep run in this process, its standard output's pieces recorded as they come; `stopAfter` pieces stops it. */
async function streamed(args: string[], stopAfter = Infinity): Promise<{ pieces: string[]; error: unknown }> {
  const stdout = new PassThrough();
  const pieces: string[] = [];
  const stop = new AbortController();
  stdout.on('data', (c: Buffer) => { pieces.push(c.toString('utf8')); if (pieces.length >= stopAfter) stop.abort(); });
  try {
    await command(['sweep', join(ROOT, 'test/fixtures/tiny.yaml'), ...args], { stdout, stderr: new PassThrough(), env: {} }, stop.signal);
    return { pieces, error: undefined };
  } catch (e) {
    return { pieces, error: e };
  }
}

describe('through the command', () => {
  afterEach(removeScratch);
  const vary = ['--vary', 'client.timeout=100ms..2s:12', '--actions', '100'];

  it('CSV reaches standard output a row at a time; stopped, it says what standard output holds', async () => {
    const { pieces, error } = await streamed([...vary, '--format', 'csv'], 3);
    expect(error).toBeInstanceOf(Interrupted);
    expect(String((error as { written?: string }).written)).toBe('standard output holds the part of the report written before it, which is incomplete');
    expect(pieces[0]).toMatch(/^param_client\.timeout_ms,/);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces.length).toBeLessThan(13); // the header and 12 rows: stopped before the end
  });

  it('--out is written whole at the end: only its temporary file while the points run, nothing left when stopped', async () => {
    const dir = scratch();
    const out = join(dir, 'o.csv');
    const run = (signal?: AbortSignal) => command(['sweep', join(ROOT, 'test/fixtures/tiny.yaml'), ...vary, '--format', 'csv', '--out', out], { stdout: new PassThrough(), stderr: new PassThrough(), env: {} }, signal);
    const stop = new AbortController();
    let seen: string[] = [];
    // Between slices of chunks, and after a run's last, the sweep yields to the event loop: once the temporary file holds the header, stop it.
    const watch = setInterval(() => {
      const tmp = readdirSync(dir).find((f) => f.endsWith('.tmp'));
      if (tmp !== undefined && statSync(join(dir, tmp)).size > 0 && !stop.signal.aborted) { seen = readdirSync(dir); stop.abort(); }
    }, 1);
    await expect(run(stop.signal)).rejects.toBeInstanceOf(Interrupted);
    clearInterval(watch);
    expect(seen).toEqual([expect.stringMatching(/^\.o\.csv\.[0-9a-f]{16}\.tmp$/)]);
    expect(readdirSync(dir)).toEqual([]);
    expect(await run()).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(13);
    expect(readdirSync(dir)).toEqual(['o.csv']);
  });

  it('JSON with --find: the spooled points, after the answers, are the bytes the report gives whole', async () => {
    const { pieces, error } = await streamed([...vary, '--json', '--find', 'duplicates_per_1000<400']);
    expect(error).toBeUndefined();
    const text = pieces.join('');
    const doc = JSON.parse(text) as { scenario: string; seed: string; version: string; replay: string; vary: string[]; find: { conditions: string[] }; points: (SweepPointResult & { found?: boolean })[] };
    const points = doc.points.map(({ found: _, ...pt }) => pt);
    const whole = renderSweepJson({ scenario: doc.scenario, paths: doc.vary, seed: doc.seed, version: doc.version, replay: doc.replay, points, find: doc.find.conditions.map(parseFind) });
    expect(text).toBe(whole);
  });
});
