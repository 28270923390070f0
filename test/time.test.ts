/**
 * docs/model.md's "Time": load profiles, load.duration, incident windows, store outages, series
 * and alerts, against closed forms (issue 15's list). Each statistical check states its
 * tolerance: 4 standard errors of the count or share it checks, plus any edge effect named.
 */
import { describe, expect, it } from 'vitest';
import { hasReading, readAlert } from '../src/results/alert-paths.js';
import { seriesOption } from '../src/scenario/series-option.js';
import { checkArrivals } from '../src/scenario/time-checks.js';
import { InputError } from '../src/scenario/errors.js';
import { evaluateAlerts, firings, MAX_LISTED_FIRINGS, type AlertResult } from '../src/results/alerts.js';
import { alertCell } from '../src/report/sweep-alerts.js';
import { NUM_SERIES, SER, seriesTotal, type SeriesCounts, type SeriesName } from '../src/model/series.js';
import { simulate } from '../src/exec/simulate.js';
import { normalTail, parseRunnable, seProportion } from './helpers.js';

const MINUTE = 60_000;

/** A run of `yaml` with its series in buckets of `step` ms. */
function run(yaml: string, step = MINUTE, seed = '1') {
  const r = simulate(parseRunnable(yaml), seed, step);
  if (!r.series) throw new Error('no series');
  return { ...r, series: r.series };
}

/** A count summed over the buckets that start in [from, to). */
function sum(s: SeriesCounts, name: SeriesName, from = 0, to = Infinity): number {
  let total = 0;
  for (let b = 0; b < s.buckets; b++) if (b * s.step >= from && b * s.step < to) total += s.counts[b * NUM_SERIES + SER[name]] as number;
  return total;
}

describe('load over time', () => {
  it('load.duration 1h at 50/s gives 180,000 ± 4·√180,000 primaries, all arriving within the hour', () => {
    const r = run('load: {duration: 1h}\nservice: {latency: {dist: constant, value: 10ms}}\nnetwork: {reply_loss: 0}');
    expect(Math.abs(r.metrics.primary_actions - 180_000)).toBeLessThan(4 * Math.sqrt(180_000));
    expect(sum(r.series, 'arrivals')).toBe(r.metrics.primary_actions);
    expect(sum(r.series, 'arrivals', 60 * MINUTE)).toBe(0);
  });

  it('draws another Poisson count for another seed, and the same for the same seed', () => {
    const yaml = 'load: {duration: 10m}';
    const counts = ['1', '2', '1'].map((seed) => simulate(parseRunnable(yaml), seed).metrics.primary_actions);
    expect(counts[0]).toBe(counts[2]);
    expect(counts[0]).not.toBe(counts[1]);
  });

  it('a rate that doubles at 30 minutes doubles the arrivals per bucket', () => {
    const r = run('load: {duration: 1h, profile: [{at: 30m, rate_per_s: 100}]}\nservice: {latency: {dist: constant, value: 10ms}}');
    const first = sum(r.series, 'arrivals', 0, 30 * MINUTE);
    const second = sum(r.series, 'arrivals', 30 * MINUTE, 60 * MINUTE);
    // Poisson counts of 90,000 and 180,000: the ratio's standard error is 2·√(1/90,000 + 1/180,000) ≈ 0.0082.
    expect(Math.abs(second / first - 2)).toBeLessThan(4 * 2 * Math.sqrt(1 / 90_000 + 1 / 180_000));
    // The mean rate over the run is 75/s, which duplicates_per_day and the key store use.
    expect(r.metrics.actions_per_second).toBeCloseTo(75, 9);
  });

  it('a profile with a fixed number of actions places them by the profile', () => {
    // 60,000 actions: 30,000 in the first 10 minutes at 50/s, the rest at 100/s (5 more minutes).
    const r = run('actions: 60000\nload: {profile: [{at: 10m, rate_per_s: 100}]}');
    const last = sum(r.series, 'arrivals', 15 * MINUTE);
    expect(sum(r.series, 'arrivals', 0, 10 * MINUTE)).toBeGreaterThan(30_000 - 4 * Math.sqrt(30_000));
    expect(last).toBeLessThan(500); // the 60,000th arrival is expected at 15 min, give or take ≈ 2.5 s (√60,000 gaps of 10 ms)
  });
});

describe('--series', () => {
  it('takes a duration above 0 with its unit, and says which of those a refused step is not', () => {
    expect(seriesOption('1m')).toBe(MINUTE);
    expect(seriesOption(undefined)).toBeUndefined();
    expect(() => seriesOption('1e-300ms')).toThrow(/--series 1e-300ms: "1e-300ms" is not a duration/);
    expect(() => seriesOption('0s')).toThrow(/--series 0s: is 0: a series needs buckets of some length/);
    expect(() => seriesOption('2')).toThrow(/"2" has no unit/);
    expect(() => seriesOption('1M')).toThrow(/Did you mean `1m`\?/);
  });
});

describe('a run with no arrival', () => {
  it('is refused, naming load.duration and the expected count: over no action every expectation would pass', () => {
    const short = parseRunnable('load: {rate_per_s: 50, duration: 1ms}');
    expect(() => checkArrivals(short, '1')).toThrow(InputError);
    expect(() => checkArrivals(short, '1')).toThrow(/load\.duration: brings no action with seed 1: 1ms at the scenario's rate gives 0\.050 arrivals expected/);
    // A count of actions, and a duration that brings some, are runs.
    expect(() => checkArrivals(parseRunnable('actions: 1'), '1')).not.toThrow();
    expect(() => checkArrivals(parseRunnable('load: {rate_per_s: 50, duration: 1s}'), '1')).not.toThrow();
  });
});

describe('incident windows', () => {
  const SLOW = 'load: {duration: 1h}\nincidents: [{name: slowdown, from: 20m, to: 30m, service: {latency_multiplier: 4}}]';

  it('inside a 4× window of the lab defaults attempts end unknown at P(Z > ln(1000/1200)/0.6) + (1 − that)·0.02, outside at the guide\'s 4.2%', () => {
    const r = run(SLOW);
    const share = (from: number, to: number) => sum(r.series, 'timeouts', from, to) / sum(r.series, 'attempts', from, to);
    const over = normalTail(Math.log(1000 / 1200) / 0.6);
    const inside = over + (1 - over) * 0.02; // ≈ 0.627
    const over1 = normalTail(Math.log(1000 / 300) / 0.6);
    const outside = over1 + (1 - over1) * 0.02; // ≈ 0.042
    // Buckets 21–28 min hold attempts sent well inside (timeouts are counted at the timer, 1 s after the send).
    const nIn = sum(r.series, 'attempts', 21 * MINUTE, 29 * MINUTE);
    expect(Math.abs(share(21 * MINUTE, 29 * MINUTE) - inside)).toBeLessThan(4 * seProportion(inside, nIn));
    const nOut = sum(r.series, 'attempts', 0, 19 * MINUTE);
    expect(Math.abs(share(0, 19 * MINUTE) - outside)).toBeLessThan(4 * seProportion(outside, nOut));
  });

  it('series sum to the run\'s totals', () => {
    const r = run(`${SLOW}\nidempotency: {scope: call}\nruntime: {crash_probability: 0.05}\nworkload: {twin_probability: 0.1}`);
    const m = r.metrics;
    const total = (per1000: number) => Math.round((per1000 * m.actions) / 1000);
    expect(seriesTotal(r.series, 'arrivals')).toBe(m.primary_actions);
    expect(seriesTotal(r.series, 'attempts')).toBe(Math.round(m.attempts_per_action.value * m.actions));
    expect(seriesTotal(r.series, 'executions')).toBe(Math.round(m.executions_per_action.value * m.actions));
    expect(seriesTotal(r.series, 'duplicates')).toBe(total(m.duplicates_per_1000.value));
    expect(seriesTotal(r.series, 'conflicts_409')).toBe(total(m.conflicts_409_per_1000.value));
    expect(seriesTotal(r.series, 'dedup_hits')).toBe(total(m.dedup_hits_per_1000.value));
    expect(seriesTotal(r.series, 'unknown_outcomes')).toBe(total(m.unknown_outcomes_per_1000.value));
    expect(seriesTotal(r.series, 'lost')).toBe(total(m.lost_per_1000.value));
    expect(seriesTotal(r.series, 'timeouts')).toBe(Math.round(m.attempts_unknown_fraction * seriesTotal(r.series, 'attempts')));
    expect(seriesTotal(r.series, 'duplicates')).toBeGreaterThan(0);
  });

  it('a deploy window (crash probability 1 for the steps ending in it): 5-minute retention misses about 83% of the replays, 1 hour none', () => {
    const deploy = (retention: string) => run(`load: {duration: 30m}\nidempotency: {scope: intent, retention: ${retention}}\nincidents: [{name: deploy, from: 10m, to: 11m, runtime: {crash_probability: 1}}]`);
    const long = deploy('1h');
    expect(long.metrics.duplicates_per_1000.value).toBe(0);
    const short = deploy('5m');
    const replayed = sum(short.series, 'arrivals', 10 * MINUTE, 11 * MINUTE);
    // Resumes U(2, 20) min after the step: a key kept 5 min after it is gone for (20 − 5)/18 of them.
    const share = seriesTotal(short.series, 'duplicates') / replayed;
    // Plus about 2% for the steps that end in the window but began before it (a second of about 60).
    expect(Math.abs(share - 15 / 18)).toBeLessThan(4 * seProportion(15 / 18, replayed) + 0.02);
    expect(short.metrics.duplicates_per_1000.replay.value).toBe(short.metrics.duplicates_per_1000.value);
    // Replays come 2 min after the steps at the earliest, and a key lives 5 min from its write, which
    // for a step that ends in the window comes at most the step's few seconds (retries) before it.
    expect(sum(short.series, 'duplicates', 0, 14 * MINUTE)).toBe(0);
  });
});

describe('a key store outage', () => {
  const OUTAGE = 'load: {duration: 30m}\nincidents: [{name: outage, from: 10m, to: 15m, store: {down: true}}]';

  it('fail_closed: no duplicates, and the 503s come in the window, each counted', () => {
    const r = run(`${OUTAGE}\nidempotency: {scope: intent, on_store_down: fail_closed}`, 10_000);
    expect(r.metrics.duplicates_per_1000.value).toBe(0);
    const unavailable = seriesTotal(r.series, 'store_unavailable');
    expect(unavailable).toBeGreaterThan(1000);
    expect(sum(r.series, 'store_unavailable', 10 * MINUTE, 15 * MINUTE + 10_000)).toBe(unavailable);
    expect(Math.round(((r.metrics.store_unavailable_per_1000?.value ?? 0) * r.metrics.actions) / 1000)).toBe(unavailable);
  });

  it('fail_open with per-call keys: duplicates only from the attempts sent in the window and their retries', () => {
    // No re-plans or replays: outside the window, retries share their call's key and never duplicate.
    const r = run(`${OUTAGE}\nidempotency: {scope: call, on_store_down: fail_open}\nagent: {replan_probability: 0}`, 10_000);
    const dups = seriesTotal(r.series, 'duplicates');
    expect(dups).toBeGreaterThan(0);
    // A call's retries end within 4 attempts of 1 s and backoffs of at most 0.8 s after its first: 10 s buckets to 15 min + 10 s.
    expect(sum(r.series, 'duplicates', 10 * MINUTE, 15 * MINUTE + 10_000)).toBe(dups);
    expect(r.metrics.duplicates_per_1000.transport.value).toBe(r.metrics.duplicates_per_1000.value);
    expect(seriesTotal(r.series, 'store_unavailable')).toBe(0);
  });
});

describe('alerts', () => {
  const yaml = (above: number) => `load: {duration: 1h}\nidempotency: {scope: intent}
incidents: [{name: slowdown, from: 20m, to: 30m, service: {latency_multiplier: 4}}]
alerts: [{name: conflicts, metric: conflicts_409, above: ${above}, for: 2m}]`;

  it('a threshold well above the baseline never fires outside the incident, and its delay is a whole number of buckets', () => {
    const r = run(yaml(10));
    const [a] = evaluateAlerts(r.series, r.scenario.alerts, r.scenario.incidents);
    expect(a?.false_alarms).toBe(0);
    const delay = a?.detection_delay_ms['slowdown'];
    expect(delay).not.toBeNull();
    expect((delay as number) % MINUTE).toBe(0);
    expect(delay).toBeGreaterThanOrEqual(2 * MINUTE); // `for: 2m`: two buckets above at least
    for (const [start] of a?.firings ?? []) expect(start >= 20 * MINUTE && start < 60 * MINUTE).toBe(true);
  });

  it('a threshold below the baseline fires at once and is a false alarm', () => {
    const r = run(yaml(0.5));
    const [a] = evaluateAlerts(r.series, r.scenario.alerts, r.scenario.incidents);
    expect(a?.firings[0]?.[0]).toBe(2 * MINUTE);
    expect(a?.false_alarms).toBe(1);
  });

  it('fires at the end of the bucket completing the run above, clears at the end of the first at or below', () => {
    const counts = new Float64Array(6 * NUM_SERIES);
    [0, 5, 5, 0, 5, 5].forEach((v, b) => { counts[b * NUM_SERIES + SER.timeouts] = v; });
    const s: SeriesCounts = { step: 1000, buckets: 6, counts };
    const alert = { name: 'a', metric: 'timeouts' as const, above: 4, for: 2000, grace: 0 };
    expect(firings(s, alert)).toEqual([[3000, 4000], [6000, 6000]]);
    expect(firings(s, { ...alert, for: 0 })).toEqual([[2000, 4000], [5000, 6000]]);
    const [judged] = evaluateAlerts(s, [alert], [{ name: 'w', from: 1000, to: 2000 } as never, { name: 'v', from: 2500, to: 2600 } as never]);
    // With no grace, a firing belongs to a window only if it begins inside it: both begin after w and v ended.
    expect(judged).toEqual({ name: 'a', firing_count: 2, firings: [[3000, 4000], [6000, 6000]], detection_delay_ms: { w: null, v: null }, false_alarms: 2 });
  });

  it('an incident a run lacks reads as no value, even when named like an Object member (toString once crashed a sweep\'s CSV)', () => {
    const alerts: AlertResult[] = [{ name: 'a', firing_count: 1, firings: [[0, 60_000]], detection_delay_ms: { x: 120_000, y: null }, false_alarms: 0 }];
    expect(readAlert(alerts, 'alerts.a.detection_delay_ms.x')).toBe(120_000);
    for (const incident of ['y', 'toString', 'valueOf', 'hasOwnProperty']) expect(readAlert(alerts, `alerts.a.detection_delay_ms.${incident}`)).toBeNull();
    expect(hasReading(alerts, 'alerts.a.detection_delay_ms.y')).toBe(true);
    expect(hasReading(alerts, 'alerts.a.detection_delay_ms.toString')).toBe(false);
    // A sweep's table: missed where the point has the incident, – where it has not.
    const pt = { params: {}, metrics: {} as never, alerts };
    expect(alertCell(pt, 'alerts.a.detection_delay_ms.y')).toBe('missed');
    expect(alertCell(pt, 'alerts.a.detection_delay_ms.toString')).toBe('–');
    expect(alertCell(pt, 'alerts.a.detection_delay_ms.x')).toBe('2 min');
  });

  it(`lists the first ${MAX_LISTED_FIRINGS} firings and counts every one (a noisy alert on 100 alerts x 100,000 buckets made a 236 MB JSON)`, () => {
    // Every other bucket above: 3,000 buckets give 1,500 firings, more than are listed.
    const buckets = 3000;
    const counts = new Float64Array(buckets * NUM_SERIES);
    for (let b = 0; b < buckets; b += 2) counts[b * NUM_SERIES + SER.attempts] = 100;
    const series: SeriesCounts = { step: MINUTE, buckets, counts };
    const alert = { name: 'noisy', metric: 'attempts' as const, above: 1, for: 0, grace: 0 };
    const [a] = evaluateAlerts(series, [alert], []);
    expect(firings(series, alert)).toHaveLength(1500);
    expect(a?.firing_count).toBe(1500);
    expect(a?.false_alarms).toBe(1500);
    expect(a?.firings).toEqual(firings(series, alert).slice(0, MAX_LISTED_FIRINGS));
    expect(readAlert(a ? [a] : [], 'alerts.noisy.firings')).toBe(1500);
  });
});

