/**
 * Issue 21's wrong numbers of time: a later window that sets a key back to its default, lulls in
 * a profile, the alert baselines and per-day figures of a run with incidents, and the bucket the
 * load ends in. Each statistical check states its tolerance.
 */
import { describe, expect, it } from 'vitest';
import { arrivalSpan, Clock } from '../src/model/clock.js';
import { inForceAt, windowMatters } from '../src/model/incidents.js';
import { quietBuckets } from '../src/results/quiet.js';
import { loadCovered, NUM_SERIES, SER, seriesJson, type SeriesCounts, type SeriesName } from '../src/model/series.js';
import { simulate } from '../src/exec/simulate.js';
import { parseScenario } from '../src/scenario/parse.js';
import { checkArrivals } from '../src/scenario/time-checks.js';
import { InputError } from '../src/scenario/errors.js';
import { parseRunnable } from './helpers.js';
import { Chalk } from 'chalk';
import { renderTable } from '../src/report/table.js';
import { incidentChanges } from '../src/report/time-section.js';
import type { ScenarioRun } from '../src/report/types.js';

const MINUTE = 60_000;

function run(yaml: string, step: number | null = MINUTE, seed = '1') {
  return simulate(parseRunnable(yaml), seed, step);
}

/** A count summed over the buckets that start in [from, to). */
function sum(s: SeriesCounts, name: SeriesName, from = 0, to = Infinity): number {
  let total = 0;
  for (let b = 0; b < s.buckets; b++) if (b * s.step >= from && b * s.step < to) total += s.counts[b * NUM_SERIES + SER[name]] as number;
  return total;
}

const OUTAGE = `load: {rate_per_s: 100, duration: 30m}
idempotency: {scope: intent, on_store_down: fail_closed}
incidents:
  - {name: outage, from: 10m, to: 25m, store: {down: true}}
`;

describe('a later incident window wins for every key, a default value too', () => {
  it('a failover window with store.down: false inside an outage brings the key store back', () => {
    const r = run(`${OUTAGE}  - {name: failover, from: 14m, to: 20m, store: {down: false}}\n`);
    const series = r.series as SeriesCounts;
    // Attempts sent from 14m to 20m find the store up: no 503 after the bucket at 14m, which holds the replies
    // (at the server's reply time) to the last attempts sent before 14m, a network delay and fast_reply late.
    expect(sum(series, 'store_unavailable', 15 * MINUTE, 20 * MINUTE)).toBe(0);
    expect(sum(series, 'store_unavailable', 14 * MINUTE, 15 * MINUTE)).toBeLessThan(100);
    // Before and after the failover the store is down: about 100/s × 60 s 503s a minute, and more with their retries.
    expect(sum(series, 'store_unavailable', 11 * MINUTE, 14 * MINUTE)).toBeGreaterThan(3 * 6000);
    expect(sum(series, 'store_unavailable', 21 * MINUTE, 25 * MINUTE)).toBeGreaterThan(4 * 6000);
  });

  it('each key of a window written with the scenario\'s default value overrides an earlier window', () => {
    const parsed = parseScenario(`load: {duration: 1h}
service: {capacity: {workers: 40}}
incidents:
  - {name: a, from: 0s, to: 30m, service: {latency_multiplier: 4, error_rate: 0.2, crash_probability: 0.1, capacity: {workers: 10}}, network: {request_loss: 0.1, reply_loss: 0.3}, store: {down: true}, runtime: {crash_probability: 0.2}}
  - {name: b, from: 10m, to: 20m, service: {latency_multiplier: 1, error_rate: 0, crash_probability: 0, capacity: {workers: 40}}, network: {request_loss: 0, reply_loss: 0.02}, store: {down: false}, runtime: {crash_probability: 0}}
`, 'test.yaml').scenario;
    expect(inForceAt(parsed.incidents, 5 * MINUTE)).toEqual({ latencyMultiplier: 4, errorRate: 0.2, crashProbability: 0.1, requestLoss: 0.1, replyLoss: 0.3, storeDown: true, runtimeCrash: 0.2, workers: 10 });
    expect(inForceAt(parsed.incidents, 15 * MINUTE)).toEqual({ latencyMultiplier: 1, errorRate: 0, crashProbability: 0, requestLoss: 0, replyLoss: 0.02, storeDown: false, runtimeCrash: 0, workers: 40 });
    expect(windowMatters(parsed, 1)).toBe(true);
  });

  it('warns of a window that changes nothing in force, and not of one that brings the store back', () => {
    const warned = (yaml: string) => parseScenario(yaml, 'test.yaml').warnings.map((w) => w.keyPath);
    expect(warned(`${OUTAGE}  - {name: failover, from: 14m, to: 20m, store: {down: false}}\n`)).not.toContain('incidents[1]');
    expect(warned(`${OUTAGE}  - {name: again, from: 14m, to: 20m, store: {down: true}}\n`)).toContain('incidents[1]');
    expect(warned('load: {duration: 1h}\nincidents:\n  - {name: idle, from: 1m, to: 2m, store: {down: false}}\n')).toContain('incidents[0]');
  });
});

describe('lulls in a load profile', () => {
  it('a rate of 0 brings no arrival while it lasts, and the rate after it comes back', () => {
    const r = run('load: {rate_per_s: 50, duration: 30m, profile: [{at: 10m, rate_per_s: 0}, {at: 20m, rate_per_s: 50}]}');
    const series = r.series as SeriesCounts;
    expect(sum(series, 'arrivals', 10 * MINUTE, 20 * MINUTE)).toBe(0);
    // 30,000 arrivals expected either side: Poisson, 4 standard errors of √30,000 ≈ 173.
    expect(Math.abs(sum(series, 'arrivals', 0, 10 * MINUTE) - 30_000)).toBeLessThan(4 * Math.sqrt(30_000));
    expect(Math.abs(sum(series, 'arrivals', 20 * MINUTE, 30 * MINUTE) - 30_000)).toBeLessThan(4 * Math.sqrt(30_000));
  });

  it('a run that starts with a lull starts its arrivals at the next change', () => {
    const r = run('load: {duration: 20m, profile: [{at: 0s, rate_per_s: 0}, {at: 10m, rate_per_s: 20}]}');
    expect(sum(r.series as SeriesCounts, 'arrivals', 0, 10 * MINUTE)).toBe(0);
    expect(r.metrics.primary_actions).toBeGreaterThan(0);
  });

  it('refuses a profile that brings no arrival, and a lull to the end under a fixed number of actions', () => {
    const none = parseRunnable('load: {duration: 30m, profile: [{at: 0s, rate_per_s: 0}]}');
    expect(() => checkArrivals(none, '1')).toThrow(/no arrival expected/);
    expect(() => parseScenario('actions: 1000\nload: {profile: [{at: 5s, rate_per_s: 0}]}', 'test.yaml')).toThrow(InputError);
    expect(() => parseScenario('actions: 1000\nload: {profile: [{at: 5s, rate_per_s: 0}]}', 'test.yaml')).toThrow(/load\.profile\[0\]\.rate_per_s.*would never arrive/);
  });
});

const SLOWDOWN = `load: {rate_per_s: 50, duration: 1h}
idempotency: {scope: intent}
incidents:
  - {name: slowdown, from: 20m, to: 30m, service: {latency_multiplier: 4}}
`;

describe('alert baselines and per-day figures with incidents', () => {
  it('the baselines come from the time outside the window and its grace, and match a run without the incident', () => {
    const withIncident = run(SLOWDOWN).metrics;
    // The quiet time: minutes 0 to 20 (the 30m grace after the window runs to the load's end).
    expect(withIncident.quiet_time_ms).toBe(20 * MINUTE);
    const quiet = run('load: {rate_per_s: 50, duration: 20m}\nidempotency: {scope: intent}', null).metrics;
    const a = withIncident.alert_baselines_per_s.conflicts_409;
    const b = quiet.alert_baselines_per_s.conflicts_409;
    // Two estimates of one rate: their difference within 4 of its standard errors, √(se_a² + se_b²), each se = half-width / 1.96.
    const se = Math.hypot((a.ci95[1] - a.value) / 1.96, (b.ci95[1] - b.value) / 1.96);
    expect(Math.abs(a.value - b.value)).toBeLessThan(4 * se);
    // The run's own 409 rate, incident and all, is many times the quiet one (the slowdown answers about 75/s).
    expect(withIncident.conflicts_409_per_1000.value * withIncident.actions_per_second / 1000).toBeGreaterThan(4 * a.value);
  });

  it('gives duplicates per day of the quiet time apart from the run repeated', () => {
    const yaml = `load: {rate_per_s: 50, duration: 1h}
idempotency: {scope: none}
incidents:
  - {name: deploy, from: 20m, to: 21m, runtime: {crash_probability: 0.5}}
`;
    const m = run(yaml).metrics;
    expect(m.duplicates_per_day_outside_incidents).toBeDefined();
    // Without keys, lost replies make duplicates all the time, and the deploy's replays add about 0.5 × 3,000
    // more in its minute: the run repeated all day counts them, the quiet time does not. Both have intervals
    // of a few percent at these counts, so the gap (about 20% here) is far outside them.
    const quietDay = m.duplicates_per_day_outside_incidents!;
    expect(quietDay.value).toBeGreaterThan(0);
    expect(m.duplicates_per_day.ci95[0]).toBeGreaterThan(quietDay.ci95[1]);
    expect(run('load: {rate_per_s: 50, duration: 10m}', null).metrics.duplicates_per_day_outside_incidents).toBeUndefined();
  });

  it('quiet buckets are whole buckets within the load and clear of every window and the longest grace', () => {
    const s = parseRunnable(`load: {duration: 1h}
incidents: [{name: w, from: 10m, to: 15m, service: {latency_multiplier: 2}}]
alerts: [{name: a, metric: conflicts_409, above: 1, grace: 5m}, {name: b, metric: conflicts_409, above: 1, grace: 10m}]
`);
    const quiet = quietBuckets(s, 2 * MINUTE, 40);
    // Buckets of 2 minutes: [0, 10m) clear (0..4), [10m, 25m) not (grace 10m), then from 26m (bucket 13) to the hour's end (bucket 29).
    expect(quiet).toEqual([0, 1, 2, 3, 4, ...Array.from({ length: 17 }, (_, k) => 13 + k)]);
  });

  it('takes no lull of the profile for quiet time: its zero rate is no normal minute', () => {
    const s = parseRunnable(`load: {duration: 1h, profile: [{at: 20m, rate_per_s: 0}, {at: 50m, rate_per_s: 50}]}
incidents: [{name: w, from: 5m, to: 10m, service: {latency_multiplier: 2}}]
alerts: [{name: a, metric: conflicts_409, above: 1, grace: 1m}]
`);
    // Minutes 0-4 and 11-19 before the lull, 50-59 after it; 20-49 arrive nothing.
    expect(quietBuckets(s, MINUTE, 60)).toEqual([0, 1, 2, 3, 4, ...Array.from({ length: 9 }, (_, k) => 11 + k), ...Array.from({ length: 10 }, (_, k) => 50 + k)]);
  });

  it('warns when no whole minute is quiet, even if a stretch shorter than a minute is', () => {
    const warned = (yaml: string) => parseScenario(yaml, 'test.yaml').warnings.some((w) => /leave no quiet time/.test(w.problem));
    // Clear from 2m1s to 2m30s only: 29 s, no whole minute.
    expect(warned('load: {duration: 150s}\nincidents: [{name: w, from: 50s, to: 2m, service: {latency_multiplier: 4}}]\nalerts: [{name: a, metric: conflicts_409, above: 1, grace: 1s}]\n')).toBe(true);
    expect(warned('load: {duration: 10m}\nincidents: [{name: w, from: 50s, to: 2m, service: {latency_multiplier: 4}}]\nalerts: [{name: a, metric: conflicts_409, above: 1, grace: 1s}]\n')).toBe(false);
  });

  it('the run time of an operational time at a lull\'s start is that start, not the lull\'s end', () => {
    // At 50/s as the unit: 30 s at 50/s, then 15 s at 100/s reach 60 s of operational time at 45 s, where the lull starts.
    const clock = new Clock(50, [{ at: 30_000, rate_per_s: 100 }, { at: 45_000, rate_per_s: 0 }, { at: 120_000, rate_per_s: 50 }]);
    expect(clock.real(60_000)).toBe(45_000);
    expect(clock.real(60_001)).toBeCloseTo(120_001, 6);
    expect(clock.operational(100_000)).toBe(60_000); // nothing arrives in the lull
  });

  it('warns when the windows and their grace leave no quiet time', () => {
    const warnings = parseScenario('load: {duration: 30m}\nincidents: [{name: w, from: 0s, to: 5m, service: {latency_multiplier: 2}}]\n', 'test.yaml').warnings;
    expect(warnings.map((w) => w.problem).join(' ')).toMatch(/leave no quiet time/);
    expect(run('load: {duration: 30m}\nincidents: [{name: w, from: 0s, to: 5m, service: {latency_multiplier: 2}}]').metrics.quiet_time_ms).toBe(0);
  });
});

describe('the bucket the load ends in', () => {
  it('says how much of each bucket lies within the load: whole, partial, then none', () => {
    expect([0, 1, 2, 3].map((b) => loadCovered(MINUTE, b, 2.5 * MINUTE))).toEqual([MINUTE, MINUTE, MINUTE / 2, 0]);
    const r = run('load: {duration: 150s}');
    const json = seriesJson(r.series as SeriesCounts, arrivalSpan(r.scenario));
    expect(json.buckets.slice(0, 3).map((b) => b.load_ms)).toEqual([MINUTE, MINUTE, MINUTE / 2]);
    expect(json.buckets.slice(3).every((b) => b.load_ms === 0)).toBe(true);
    // A load of whole buckets: the calls of its last arrivals end after it, in a bucket of the drain alone.
    const whole = run('load: {duration: 2m}');
    const drain = seriesJson(whole.series as SeriesCounts, arrivalSpan(whole.scenario)).buckets;
    expect(drain.map((b) => b.load_ms)).toEqual([MINUTE, MINUTE, 0]);
    expect(drain[2]!.executions).toBeGreaterThan(0);
  });
});

describe('the words of a table and a report with incidents', () => {
  const plain = new Chalk({ level: 0 });
  const INFO = { version: 'test', replay: 'idem-sim run' };
  const runOf = (name: string, yaml: string): ScenarioRun => {
    const r = run(yaml);
    return { name, file: `${name}.yaml`, seed: '1', scenario: r.scenario, warnings: [], metrics: r.metrics };
  };
  const plainRun = runOf('plain', 'load: {duration: 10m}');
  const slowRun = runOf('slow', `${SLOWDOWN}`);

  it('heads the baselines and the per-day figure by what every run, or only some, has', () => {
    const table = (runs: ScenarioRun[]) => renderTable(runs, INFO, plain);
    expect(table([plainRun])).toContain('Alert baselines (per second at load.rate_per_s)');
    expect(table([slowRun])).toContain('Alert baselines (per second outside incidents and their grace)');
    expect(table([slowRun])).toContain('duplicates per day, the run repeated (incidents and all)');
    const mixed = table([plainRun, slowRun]);
    expect(mixed).toContain('Alert baselines (per second; outside incidents and their grace where a run has them)');
    expect(mixed).toContain('duplicates per day (with incidents: the run repeated, incidents and all)');
  });

  it('says a window that brings the key store back up, as one that takes it down', () => {
    const s = parseRunnable(`${OUTAGE}  - {name: failover, from: 14m, to: 20m, store: {down: false}}\n`);
    expect(s.incidents.map(incidentChanges)).toEqual([expect.stringContaining('key store down'), expect.stringContaining('key store back up')]);
  });
});

