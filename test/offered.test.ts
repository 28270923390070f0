/**
 * The offered utilisation (docs/model.md, "Saturation"): each latency form's mean, the rate with
 * twins and a profile's peak, the near-capacity warning, and `expect:` on the saturation readings.
 */
import { describe, expect, test } from 'vitest';
import { latencyMean, offeredUtilisation, workersFor } from '../src/model/offered.js';
import type { WrittenLatency } from '../src/model/latency.js';
import { parseScenario } from '../src/scenario/parse.js';
import { readSaturation } from '../src/results/saturation.js';

const mean = (yaml: string) => latencyMean(parseScenario(`service: {latency: ${yaml}}\n`, 's.yaml').scenario.service.latency);

describe('each latency form\'s mean, as its sampler draws', () => {
  test('closed forms', () => {
    expect(mean('{median: 300ms, sigma: 0.6}')).toBeCloseTo(300 * Math.exp(0.18), 9); // 359 ms, not 300
    expect(mean('{dist: constant, value: 250ms}')).toBe(250);
    expect(mean('{dist: uniform, min: 100ms, max: 300ms}')).toBe(200);
    expect(mean('{dist: exponential, mean: 80ms}')).toBe(80);
  });

  test('a mixture by its weights normalised; a histogram\'s buckets at their midpoints, the +Inf bucket at the top bound', () => {
    expect(mean('{dist: mixture, components: [{weight: 3, dist: constant, value: 100ms}, {weight: 1, dist: constant, value: 500ms}]}')).toBe(200);
    // 50 in [0, 0.1 s), 40 in [0.1, 0.5 s), 10 above 0.5 s drawn at 0.5 s: (50·50 + 40·300 + 10·500) / 100 ms.
    expect(mean('{dist: histogram, buckets: [{le: 0.1, count: 50}, {le: 0.5, count: 90}], total: 100}')).toBeCloseTo(195, 9);
  });

  test('a form whose data a file holds has no mean until the file is read, and then its own', () => {
    expect(latencyMean({ dist: 'empirical', file: 'x.txt' } as WrittenLatency)).toBeNull();
    expect(latencyMean({ dist: 'empirical', file: 'x.txt', values: [100, 200, 600] } as unknown as WrittenLatency)).toBe(300);
  });
});

describe('offered utilisation from the scenario', () => {
  test('twins arrive on top of the rate; a profile\'s peak is its highest rate while the load lasts', () => {
    const { scenario } = parseScenario(`load: {rate_per_s: 10, duration: 1h, profile: [{at: 10m, rate_per_s: 30}, {at: 20m, rate_per_s: 10}]}
workload: {twin_probability: 0.5}
service: {latency: {dist: constant, value: 200ms}, capacity: {workers: 6}}
`, 's.yaml');
    const o = offeredUtilisation(scenario)!;
    // Mean rate: (10·50 + 30·10) / 60 = 13.33/s; × 1.5 twins × 0.2 s / 6 workers.
    expect(o.offered_utilisation).toBeCloseTo(((800 / 60) * 1.5 * 0.2) / 6, 9);
    expect(o.peak_offered_utilisation).toBeCloseTo((30 * 1.5 * 0.2) / 6, 9);
    expect(workersFor(scenario, o.peak_offered_utilisation)).toBe(Math.ceil((30 * 1.5 * 0.2) / 0.7));
  });

  test('none without service.capacity', () => {
    expect(offeredUtilisation(parseScenario('client: {retry_budget: {}}\n', 's.yaml').scenario)).toBeNull();
  });
});

describe('the near-capacity warning', () => {
  const payments = (workers: number) => parseScenario(`load: {rate_per_s: 150, duration: 40m}
service: {latency: {p50: 180ms, p99: 1.2s}, capacity: {workers: ${workers}}}
client: {timeout: 2s, retries: 3}
`, 'payments.yaml').warnings.filter((w) => w.keyPath === 'service.capacity.workers');

  test('at 0.85 or above, with the workers for 0.7 and retries on top', () => {
    const [w] = payments(40);
    expect(w?.problem).toMatch(/^is near capacity: first attempts alone keep 94% of the 40 workers busy at load\.rate_per_s \(peak_offered_utilisation 0\.94, warned of from 0\.85\), and retries, re-plans and replays come on top/);
    expect(w?.fix).toMatch(/^Give it 54 workers \(peak_offered_utilisation 0\.7\)/);
    expect(w?.origin?.line).toBe(2);
  });

  test('not below 0.85', () => {
    expect(payments(45)).toEqual([]); // 0.84
  });
});

describe('expect: on the saturation readings', () => {
  const yaml = (expectBlock: string, capacity = 'service: {capacity: {workers: 4}}\n') => `load: {rate_per_s: 10, duration: 10m}
${capacity}incidents:
  - {name: pause, from: 2m, to: 3m, service: {capacity: {workers: 0}}}
expect:
${expectBlock}`;

  test('stable and recovered.INCIDENT take true or false; backlog_cleared_ms.INCIDENT a duration', () => {
    const { expectations } = parseScenario(yaml('  stable: true\n  recovered.pause: false\n  backlog_cleared_ms.pause: "<= 60s"\n'), 's.yaml');
    expect(expectations.map((e) => [e.metric, e.op, e.threshold, e.text])).toEqual([
      ['stable', '==', 1, '== true'], ['recovered.pause', '==', 0, '== false'], ['backlog_cleared_ms.pause', '<=', 60_000, '<= 60s'],
    ]);
    expect(readSaturation({ stable: false, recovered: { pause: null }, backlog_cleared_ms: { pause: 12.5 } }, 'stable')).toBe(0);
    expect(readSaturation({ recovered: { pause: null } }, 'recovered.pause')).toBeNull();
    expect(readSaturation({ backlog_cleared_ms: { pause: 12.5 } }, 'backlog_cleared_ms.pause')).toBe(12.5);
  });

  test('an incident the scenario lacks, or a scenario without workers, is refused with the fix', () => {
    expect(() => parseScenario(yaml('  recovered.stall: true\n'), 's.yaml')).toThrow(/expect\.recovered\.stall.*names the incident "stall", which the scenario does not have.*Use one of the incidents' names: pause/s);
    expect(() => parseScenario('client: {retry_budget: {}}\nexpect:\n  stable: true\n', 's.yaml'))
      .toThrow(/expect\.stable.*this scenario has no service\.capacity.*Set service\.capacity/s);
    expect(() => parseScenario(yaml('  stable: "== 1"\n'), 's.yaml')).toThrow(/expect\.stable/);
  });
});
