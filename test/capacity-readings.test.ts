/**
 * The capacity readings (docs/model.md, "Capacity"), from the engine's output to the reporters:
 * a coupled run's sums (queue waits, handler time, handlers started) add up to its metrics, its
 * alerts give recovery_ms, and its six series counts are listed; a run that is not coupled
 * reports none of them and prints what it printed before.
 */
import { KeyGrid } from '../src/engine/peak.js';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { binKey, LatencyBins, type BinsData } from '../src/engine/bins.js';
import type { ChunkOutput } from '../src/engine/chunk-output.js';
import { C, NUM_COUNTERS } from '../src/model/counters.js';
import { NUM_SERIES, SER, SERIES_NAMES, TRIGGER_SERIES, type SeriesCounts } from '../src/model/series.js';
import type { WrittenScenario } from '../src/model/types.js';
import { renderSeriesCsv } from '../src/report/series-csv.js';
import { renderJson } from '../src/report/json.js';
import { renderCsv } from '../src/report/sweep-csv.js';
import { renderTable } from '../src/report/table.js';
import type { ScenarioRun } from '../src/report/types.js';
import { isAlertPath, readAlert } from '../src/results/alert-paths.js';
import { evaluateAlerts, runAlerts } from '../src/results/alerts.js';
import { CAPACITY_SERIES, listedSeries } from '../src/results/capacity.js';
import { RunState, type RunStateData } from '../src/results/metrics.js';
import { checkAlertNames, type Expectation } from '../src/scenario/expect.js';
import { PartChecker } from '../src/shards/part-check.js';
import { parseRunnable } from './helpers.js';

const WORKERS = parseRunnable('load: { duration: 10s, rate_per_s: 100 }\nservice: { capacity: { workers: 4 } }\n');
const BUDGET = parseRunnable('load: { duration: 10s, rate_per_s: 100 }\nclient: { retry_budget: aws-standard }\n');
const PLAIN = parseRunnable('load: { duration: 10s, rate_per_s: 100 }\n');

/** Latency bins of `values` (ms; 0 into the zero count), as the engine writes them. */
function bins(values: readonly number[]): BinsData {
  const b = new LatencyBins();
  for (const v of values) b.countKey(binKey(v));
  return b.toData();
}

/** A chunk of `actions` actions, `counts` per counter summed (each action counting at most 1), with capacity measures or none. */
function chunk(actions: number, counts: Partial<Record<'shed' | 'expired' | 'budget_denied' | 'breaker_rejected', number>>, capacity: ChunkOutput['capacity']): ChunkOutput {
  const sum = new Float64Array(NUM_COUNTERS);
  for (const [name, n] of Object.entries(counts)) sum[C[name as keyof typeof counts]] = n;
  return {
    index: 0, primaries: actions, actions, sum, sumSq: sum.slice(), handlerRuns: 0, handlerRunsOverTimeout: 0, attemptsUnknown: 0,
    callLatency: bins([]), actionLatency: bins([]), grid: new KeyGrid(1000), series: null, capacity,
  };
}

/** 60 requests that waited 0 and 40 that waited 100 ms, 12 s of handler time in a 10 s load. */
const WAITS = [...Array<number>(60).fill(0), ...Array<number>(40).fill(100)];
const measured = (waits: readonly number[], busyMs: number) => ({ queueWait: bins(waits), busyUs: busyMs * 1000, loadMs: 10_000, started: waits.length, succeeded: waits.length - 5 });

function coupledState(): RunState {
  const state = new RunState(1000);
  state.addChunk(chunk(600, { shed: 18, budget_denied: 6 }, measured(WAITS.slice(0, 50), 7_000)));
  state.addChunk(chunk(400, { shed: 12, breaker_rejected: 4 }, measured(WAITS.slice(50), 5_000)));
  return state;
}

describe('a coupled run\'s sums and metrics', () => {
  it('adds chunks up to its counters per 1000, queue-wait quantiles and utilisation', () => {
    const m = coupledState().finish(WORKERS);
    expect(m.shed_per_1000?.value).toBe(30); // 30 sheds over 1000 actions
    expect(m.budget_denied_per_1000?.value).toBe(6);
    expect(m.breaker_rejected_per_1000?.value).toBe(4);
    expect(m.expired_per_1000).toEqual({ value: 0, ci95: [0, 3] }); // none seen: the rule of three, 3/1000 × 1000
    // 60 of the 100 waits are 0: the median (rank 49.5) falls among them and is exactly 0.
    expect(m.queue_wait_ms?.p50).toBe(0);
    // The rest are 100 ms, read back within the sketch's relative accuracy (0.5%, bins.ts).
    for (const q of [m.queue_wait_ms?.p95, m.queue_wait_ms?.p99]) expect(Math.abs((q as number) - 100)).toBeLessThanOrEqual(0.5);
    // 12 s of handler time over 4 workers × 10 s.
    expect(m.utilisation).toBeCloseTo(0.3, 12);
  });

  it('gives the same sums through RunStateData (threads, parts) as chunk by chunk', () => {
    const whole = coupledState();
    const data = whole.toData();
    expect(data.capacity).toEqual({ ...measured(WAITS, 12_000), succeeded: 90 });
    const again = new RunState(1000);
    again.addData(JSON.parse(JSON.stringify(data)) as RunStateData);
    expect(again.finish(WORKERS)).toEqual(whole.finish(WORKERS));
  });

  it('has no utilisation without workers (a retry budget alone), and zero waits', () => {
    const state = new RunState(1000);
    state.addChunk(chunk(100, { budget_denied: 2 }, measured([0, 0, 0], 0)));
    const m = state.finish(BUDGET);
    expect(m.utilisation).toBeNull();
    expect(m.queue_wait_ms).toEqual({ p50: 0, p95: 0, p99: 0 });
    expect(m.budget_denied_per_1000?.value).toBe(20);
  });

  it('reports none of the capacity metrics for a run that is not coupled, and writes no capacity sums', () => {
    const state = new RunState(1000);
    state.addChunk(chunk(1000, {}, null));
    const m = state.finish(PLAIN);
    for (const key of ['shed_per_1000', 'expired_per_1000', 'budget_denied_per_1000', 'breaker_rejected_per_1000', 'queue_wait_ms', 'utilisation']) expect(m).not.toHaveProperty(key);
    expect(state.toData()).not.toHaveProperty('capacity');
  });
});

describe('the capacity readings in reports', () => {
  const coupled = coupledState().finish(WORKERS);
  const plain = (() => { const s = new RunState(1000); s.addChunk(chunk(1000, {}, null)); return s.finish(PLAIN); })();
  const runOf = (name: string, scenario: WrittenScenario, metrics = plain, series?: SeriesCounts): ScenarioRun => ({ name, file: null, seed: '1', scenario, warnings: [], metrics, ...(series ? { series } : {}) });
  const INFO = { version: 'test', replay: 'idem-sim run' };
  const plainTable = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

  it('gives the table a capacity section only when a run is coupled', () => {
    const chalk = new Chalk({ level: 0 });
    const without = plainTable(renderTable([runOf('a', PLAIN)], INFO, chalk));
    expect(without).not.toMatch(/Capacity|queue wait|utilisation/);
    const withIt = plainTable(renderTable([runOf('a', PLAIN), runOf('b', WORKERS, coupled)], INFO, chalk));
    expect(withIt).toMatch(/Capacity \(workers, retry budget, breaker\)/);
    expect(withIt).toMatch(/queue wait p50 +│ +– +│ +0 ms/);
    expect(withIt).toMatch(/utilisation \(workers busy\) +│ +– +│ +30\.00%/);
  });

  it('gives a sweep\'s CSV the capacity columns only when a point is coupled', () => {
    const report = (points: { params: Record<string, number>; metrics: typeof plain }[]) =>
      ({ scenario: 's.yaml', paths: ['client.timeout'], seed: '1', version: 'test', replay: 'idem-sim sweep', points });
    const header = (csv: string) => (csv.split('\n')[0] as string).split(',');
    expect(header(renderCsv(report([{ params: { 'client.timeout': 1 }, metrics: plain }])))).not.toContain('shed_per_1000');
    const both = renderCsv(report([{ params: { 'client.timeout': 1 }, metrics: plain }, { params: { 'client.timeout': 2 }, metrics: coupled }]));
    const cols = header(both);
    expect(cols.slice(cols.indexOf('action_latency_ms.p99') + 1, cols.indexOf('keys_per_action'))).toEqual([
      'shed_per_1000', 'shed_per_1000_ci95_low', 'shed_per_1000_ci95_high', 'expired_per_1000', 'expired_per_1000_ci95_low', 'expired_per_1000_ci95_high',
      'budget_denied_per_1000', 'budget_denied_per_1000_ci95_low', 'budget_denied_per_1000_ci95_high',
      'breaker_rejected_per_1000', 'breaker_rejected_per_1000_ci95_low', 'breaker_rejected_per_1000_ci95_high',
      'queue_wait_ms.p50', 'queue_wait_ms.p95', 'queue_wait_ms.p99', 'utilisation', 'saturated_share', 'offered_utilisation', 'peak_offered_utilisation',
    ]);
    const [, first, second] = both.split('\n').map((line) => line.split(','));
    expect(first?.[cols.indexOf('shed_per_1000')]).toBe('');
    expect(second?.[cols.indexOf('shed_per_1000')]).toBe('30');
    expect(second?.[cols.indexOf('utilisation')]).toBe('0.3');
  });

  it('lists the six capacity counts of a series only for coupled runs (JSON buckets, CSV columns)', () => {
    // A trigger's counts (version 4, test/trigger-readings.test.ts) only where the scenario has one.
    const untriggered = SERIES_NAMES.filter((n) => !(TRIGGER_SERIES as readonly string[]).includes(n));
    expect(listedSeries(PLAIN)).toEqual(untriggered.filter((n) => !(CAPACITY_SERIES as readonly string[]).includes(n)));
    // The throttle's count (version 4) only where it is set: runs without it keep their columns.
    expect(listedSeries(WORKERS)).toEqual(untriggered.filter((n) => n !== 'throttled'));
    expect(listedSeries(BUDGET)).toEqual(untriggered.filter((n) => n !== 'throttled'));
    expect(listedSeries({ ...BUDGET, client: { ...BUDGET.client, retry_throttle: { max_tokens: 10, token_ratio: 0.1 } } })).toEqual(untriggered);
    const counts = new Float64Array(2 * NUM_SERIES);
    counts[SER.arrivals] = 7;
    counts[NUM_SERIES + SER.started] = 5;
    const series: SeriesCounts = { step: 5000, buckets: 2, counts };
    const json = JSON.parse(renderJson([runOf('a', PLAIN, plain, series), runOf('b', WORKERS, coupled, series)], INFO)) as { results: { series: { buckets: Record<string, number>[] } }[] };
    expect(Object.keys(json.results[0]?.series.buckets[0] ?? {})).toEqual(['start_ms', 'load_ms', ...listedSeries(PLAIN)]);
    expect(json.results[1]?.series.buckets[1]).toMatchObject({ started: 5, shed: 0, succeeded: 0 });
    const old = 'run,start_ms,arrivals,attempts,executions,duplicates,conflicts_409,mismatches_422,dedup_hits,timeouts,unknown_outcomes,lost,store_unavailable,step_ms,load_ms,seed,idem_sim_version';
    expect(renderSeriesCsv([runOf('a', PLAIN, plain, series)], INFO).split('\n')[0]).toBe(old);
    const mixed = renderSeriesCsv([runOf('a', PLAIN, plain, series), runOf('b', WORKERS, coupled, series)], INFO).split('\n');
    expect(mixed[0]).toBe(old.replace(',step_ms', `,${CAPACITY_SERIES.filter((n) => n !== 'throttled').join(',')},step_ms`));
    expect(mixed[2]).toBe('a,5000,0,0,0,0,0,0,0,0,0,0,0,,,,,,,5000,5000,1,test'); // a run that is not coupled: empty cells
    expect(mixed[4]).toBe('b,5000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,5,0,5000,5000,1,test');
  });
});

describe('recovery_ms of alerts', () => {
  /** 1 s buckets of `shed`, as many as `rates` gives (a count per bucket). */
  const seriesOf = (rates: readonly number[]): SeriesCounts => {
    const counts = new Float64Array(rates.length * NUM_SERIES);
    rates.forEach((r, b) => { counts[b * NUM_SERIES + SER.shed] = r; });
    return { step: 1000, buckets: rates.length, counts };
  };
  const alert = { name: 'storm', metric: 'shed', above: 2, for: 0, grace: 2000 } as WrittenScenario['alerts'][number];
  const window = (name: string, from: number, to: number) => ({ name, from, to }) as WrittenScenario['incidents'][number];

  it('runs from the incident\'s end to the end of the last firing that belongs to it, 0 if it ended first, null if none', () => {
    // Firings [3 s, 5 s) and [7 s, 12 s) (a firing starts at the end of its first bucket above 2).
    const s = seriesOf([0, 0, 9, 9, 0, 0, 9, 9, 9, 9, 9, 0, 0]);
    const [a] = evaluateAlerts(s, [alert], [window('early', 1000, 6000), window('late', 6000, 8000), window('never', 12_500, 13_000)], true);
    expect(a?.firings).toEqual([[3000, 5000], [7000, 12_000]]);
    // early: the firing at 3 s ended at 5 s, before its end at 6 s: 0. late: the firing at 7 s ends at 12 s, 4 s after 8 s.
    expect(a?.recovery_ms).toEqual({ early: 0, late: 4000, never: null });
    expect(a?.detection_delay_ms).toEqual({ early: 2000, late: 1000, never: null });
  });

  it('gives a firing to the incident with the latest from that holds its start within its grace, the one listed last on a tie', () => {
    const s = seriesOf([0, 0, 9, 9, 9, 9, 0]); // one firing [3 s, 7 s)
    const [tie] = evaluateAlerts(s, [alert], [window('first', 1000, 2000), window('second', 1000, 2500)], true);
    expect(tie?.recovery_ms).toEqual({ first: null, second: 4500 });
    const [later] = evaluateAlerts(s, [alert], [window('later', 2000, 4000), window('earlier', 1000, 2500)], true);
    expect(later?.recovery_ms).toEqual({ later: 3000, earlier: null });
  });

  it('is given for coupled runs only, and read by its expect: path', () => {
    const s = seriesOf([0, 0, 9, 9, 0]);
    const withAlert = (scenario: WrittenScenario) => ({ ...scenario, alerts: [alert], incidents: [window('w', 1000, 2000)] });
    expect(runAlerts(withAlert(PLAIN), s)?.[0]).not.toHaveProperty('recovery_ms');
    const alerts = runAlerts(withAlert(WORKERS), s);
    expect(isAlertPath('alerts.storm.recovery_ms.w')).toBe(true);
    expect(readAlert(alerts, 'alerts.storm.recovery_ms.w')).toBe(3000);
    expect(readAlert(alerts, 'alerts.storm.recovery_ms.other')).toBeNull();
  });

  it('is refused in expect: for a scenario that is not coupled, as the capacity metrics are', () => {
    const origin = { source: 's.yaml' };
    const e = (metric: string): Expectation => ({ metric: metric as Expectation['metric'], op: '<', threshold: 1, text: '< 1', confidence: 'none', origin });
    const withAlert = { ...PLAIN, alerts: [alert], incidents: [window('w', 1000, 2000)] };
    expect(() => checkAlertNames([e('alerts.storm.recovery_ms.w')], withAlert)).toThrow(/only by scenarios with service\.capacity, client\.retry_budget, client\.breaker or client\.retry_throttle/);
    expect(() => checkAlertNames([e('shed_per_1000')], PLAIN)).toThrow(/only by scenarios with/);
    expect(() => checkAlertNames([e('alerts.storm.recovery_ms.nope')], { ...withAlert, service: WORKERS.service })).toThrow(/names the incident "nope"/);
    expect(() => checkAlertNames([e('utilisation'), e('alerts.storm.recovery_ms.w')], { ...withAlert, service: WORKERS.service })).not.toThrow();
  });
});

describe('a part\'s capacity sums', () => {
  const data = () => JSON.parse(JSON.stringify(coupledState().toData())) as RunStateData;
  const check = (d: unknown, coupled: boolean) => new PartChecker('p.json').runState(d, 'runs[0].state', 1000, null, coupled);

  it('are accepted as written, and held to one wait per handler started', () => {
    expect(check(data(), true).capacity).toEqual(data().capacity);
    const forged = data();
    (forged.capacity as { started: number }).started += 1;
    expect(() => check(forged, true)).toThrow(/runs\[0\]\.state\.capacity\.queueWait: holds 100 waits, but the part counts 101 handlers started/);
  });

  it('are there exactly when the run is coupled', () => {
    expect(() => check(data(), false)).toThrow(/capacity: is there, but the run is not coupled/);
    const { capacity: _, ...without } = data();
    expect(() => check(without, true)).toThrow(/capacity: is missing, but the run is coupled/);
    expect(check(without, false)).not.toHaveProperty('capacity');
  });
});
