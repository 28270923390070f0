/**
 * The saturation readings (docs/model.md, "Saturation"): the tracker on hand-placed instants, a
 * single worker walked by hand through a pause, and the share of time every worker is busy
 * against Erlang's formulas.
 */
import { KeyGrid } from '../src/engine/peak.js';
import { describe, expect, test } from 'vitest';
import { detachedOutput, type ChunkOutput, type SaturationOutput } from '../src/engine/chunk-output.js';
import { CoupledSimulator } from '../src/engine/coupled/coupled.js';
import { drive } from '../src/engine/coupled/drive.js';
import { SaturationTracker } from '../src/engine/coupled/saturation.js';
import { NO_HOOKS, type EngineHooks } from '../src/engine/hooks.js';
import { runPlans } from '../src/engine/plan.js';
import { streamRng } from '../src/random/rng.js';
import { coupledRun } from './coupled-helpers.js';
import { parseRunnable } from './helpers.js';

const MIN = 60_000;

/** A tracker over incidents written as [from, to] (ms), the load ending at `loadEnd`. */
function tracker(windows: [number, number][], loadEnd: number): SaturationTracker {
  const incidents = windows.map(([from, to], i) => `  - {name: w${i}, from: ${from}ms, to: ${to}ms, service: {capacity: {workers: 0}}}`).join('\n');
  const s = parseRunnable(`load: {rate_per_s: 1, duration: 2h}\nservice: {capacity: {workers: 1}}\n${windows.length > 0 ? `incidents:\n${incidents}\n` : ''}`);
  return new SaturationTracker(s, loadEnd);
}

describe('the tracker, on hand-placed instants', () => {
  test('a free instant of zero length does not end an episode; time inside the load only', () => {
    const t = tracker([], 10_000);
    t.begin(1000); t.end(3000); t.begin(3000); t.end(4000); // one episode [1 s, 4 s)
    t.begin(9000); t.end(12_000); // 1 s of it inside the load
    const d = t.finish(20_000);
    expect(d.saturatedMs).toBe(4000);
    expect(d.overload).toEqual([]);
  });

  test('backlog_cleared_ms from each incident\'s to, past the load flagged, overloads outside every incident', () => {
    // Incidents [1 min, 2 min) and [3 min, 4 min); the load ends at 10 min.
    const t = tracker([[MIN, 2 * MIN], [3 * MIN, 4 * MIN]], 10 * MIN);
    t.begin(MIN); t.end(2 * MIN + 1234); // holds the first to: 1234 ms
    t.begin(3 * MIN); t.end(4 * MIN); // ends at the second to: not saturated there
    t.begin(40 * MIN); t.end(50 * MIN); // 10 min, beyond every incident's 30 minutes: an overload past the load
    const d = t.finish(60 * MIN);
    expect(d.clearedMs).toEqual([1234, 0]);
    expect(d.pastLoad).toEqual([false, false]);
    expect(d.overload).toEqual([[40 * MIN, 50 * MIN]]);
  });

  test('an episode that outlives the load is not recovered; one a minute or more before an incident is an overload', () => {
    const t = tracker([[10 * MIN, 11 * MIN]], 30 * MIN);
    t.begin(8 * MIN); t.end(45 * MIN);
    const d = t.finish(45 * MIN);
    expect(d.clearedMs).toEqual([34 * MIN]);
    expect(d.pastLoad).toEqual([true]);
    // [8, 10) lies outside the incident's reach [10 min, 41 min), and [41, 45): 6 minutes.
    expect(d.overload).toEqual([[8 * MIN, 45 * MIN]]);
  });

  test('an episode that normal load began a moment before from, and the incident prolonged, belongs to the incident', () => {
    const t = tracker([[10 * MIN, 11 * MIN]], 60 * MIN);
    t.begin(10 * MIN - 59_000); t.end(20 * MIN);
    expect(t.finish(60 * MIN).overload).toEqual([]);
  });
});

/** A coupled run of `yaml`, its arrivals heard: the saturation of its last block and every primary's arrival. */
function heard(yaml: string, seed = '3'): { saturation: SaturationOutput; arrivals: number[] } {
  const s = parseRunnable(yaml);
  const arrivals: number[] = [];
  const hooks: EngineHooks = Object.assign(Object.create(NO_HOOKS) as EngineHooks, { onGroup: (x: number) => { arrivals.push(x); } });
  const out: ChunkOutput[] = [];
  const sim = new CoupledSimulator({ scenario: s, rng: streamRng(seed, 'coupled'), grid: new KeyGrid(1e9), seriesStep: null, loadEnd: s.load.duration ?? Infinity, hooks, emit: (o) => out.push(detachedOutput(o)) });
  drive(sim, seed, runPlans(s, seed));
  return { saturation: out.at(-1)!.capacity!.saturation!, arrivals };
}

describe('a single worker walked by hand', () => {
  test('constant service and a pause: the backlog clears when the worker catches up, to the millisecond', () => {
    const yaml = `actions: 400
load: {rate_per_s: 0.5}
service: {latency: {dist: constant, value: 1500ms}, capacity: {workers: 1}}
network: {reply_loss: 0, request_loss: 0}
client: {timeout: 1h, retries: 0}
agent: {replan_probability: 0}
workload: {twin_probability: 0}
incidents:
  - {name: pause, from: 200s, to: 260s, service: {capacity: {workers: 0}}}
`;
    const { saturation, arrivals } = heard(yaml);
    // FIFO by hand: a request starts when it arrives and the worker is free, not before the pause
    // is over. The episode holding `to` begins with the backlog's first start at `to` and lasts
    // while each next request starts as the one before ends (it was waiting).
    const from = 200_000, to = 260_000, d = 1500;
    let prevEnd = 0, clearedAt = NaN, open = false;
    for (const x of arrivals) {
      let start = Math.max(x, prevEnd);
      if (start >= from && start < to) start = to;
      if (start === to) open = true;
      else if (open && start !== prevEnd) open = false;
      if (open) clearedAt = start + d;
      prevEnd = start + d;
    }
    expect(arrivals.filter((x) => x >= from && x < to).length).toBeGreaterThan(10); // the pause queues a backlog
    expect(clearedAt - to).toBeGreaterThan(10 * d);
    expect(saturation.clearedMs[0]).toBeCloseTo(clearedAt - to, 9);
    expect(saturation.pastLoad[0]).toBe(false);
  });
});

/**
 * Several runs' saturated shares and their standard error: the share is autocorrelated within a
 * run (a busy spell lasts many services), so independent runs (seeds) give the error, not a
 * binomial over instants.
 */
function shares(yaml: string, seeds: number): { mean: number; se: number } {
  const xs = Array.from({ length: seeds }, (_, k) => coupledRun(yaml, `erlang-${k}`, true, null).metrics.saturated_share as number);
  const mean = xs.reduce((a, b) => a + b, 0) / seeds;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (seeds - 1));
  return { mean, se: sd / Math.sqrt(seeds) };
}

const MM = (workers: number, rate: number, extra = '') => `actions: 40000
load: {rate_per_s: ${rate}}
service: {latency: {dist: exponential, mean: 100ms}, capacity: {workers: ${workers}${extra}}}
network: {reply_loss: 0}
client: {timeout: 1h, retries: 0}
agent: {replan_probability: 0}
`;

describe('saturated_share against closed forms (exponential service, Poisson arrivals)', () => {
  // 12 seeds of 40,000 actions: each share's error comes from their spread; a mean within 4
  // standard errors of the formula (a t-quantile of 11 degrees of freedom at 4 is beyond 99.7%).
  test('Erlang C: 3 workers at λ/μ = 2 are all busy 4/9 = 0.444 of the time', () => {
    const { mean, se } = shares(MM(3, 20), 12);
    expect(se).toBeLessThan(0.01);
    expect(Math.abs(mean - 4 / 9)).toBeLessThan(4 * se);
  });

  test('Erlang B: with queue: 0, 5 workers at λ/μ = 3 are all busy 0.110 of the time', () => {
    const erlangB = (3 ** 5 / 120) / [1, 3, 4.5, 4.5, 3.375, 2.025].reduce((a, b) => a + b, 0);
    const { mean, se } = shares(MM(5, 30, ', queue: 0'), 12);
    expect(se).toBeLessThan(0.005);
    expect(Math.abs(mean - erlangB)).toBeLessThan(4 * se);
  });

  test('a service at 50% has no overload episode and recovers from nothing', () => {
    const { metrics } = coupledRun(`load: {rate_per_s: 20, duration: 1h}
service: {latency: {dist: exponential, mean: 100ms}, capacity: {workers: 4}}
client: {timeout: 1h, retries: 0}
`, '5', true, null);
    expect(metrics.offered_utilisation).toBeCloseTo(0.5, 9);
    expect(metrics.overload_episodes).toEqual([]);
    expect(metrics.stable).toBe(true);
    expect(metrics.saturated_share).toBeGreaterThan(0);
  });
});
