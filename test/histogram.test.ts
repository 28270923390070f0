/**
 * The histogram latency form (model/latency/histogram.ts): Prometheus's cumulative buckets,
 * sampled as histogram_quantile interpolates. Statistical checks use a fixed seed and a tolerance
 * of 4 standard errors from theory, worked out beside each one.
 */
import { describe, expect, it } from 'vitest';
import { compileLatency, type LatencySpec } from '../src/model/latency.js';
import { aboveEveryBound, histogramQuantile, histogramShareAbove, histogramValues } from '../src/model/latency/histogram-data.js';
import { chunkRng } from '../src/random/rng.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';
import { labError, labRun } from '../src/lab/engine.js';
import { histogramKey } from '../src/lab/histogram-files.js';
import type { RunRequest } from '../src/lab/protocol.js';
import { scenarioFingerprint } from '../src/shards/partial.js';
import { DEFAULT_SCENARIO, type Scenario } from '../src/model/types.js';
import { coupledRun } from './coupled-helpers.js';
import { parseRunnable, seProportion, sim } from './helpers.js';

/** The published test vector: le 0 -> 6, 0.5 -> 11, 1 -> 14, +Inf -> 19 has the median 0.35. */
const VECTOR = '{dist: histogram, buckets: [{le: 0, count: 6}, {le: 0.5, count: 11}, {le: 1, count: 14}], total: 19}';
const scenarioWith = (latency: string) => `service:\n  latency: ${latency}\n`;
const loaded = (latency: string): LatencySpec => parseRunnable(scenarioWith(latency)).service.latency;
const valuesOf = (latency: string) => {
  const l = loaded(latency);
  if (l.dist !== 'histogram') throw new Error('not a histogram');
  return l.values;
};
const errorOf = (latency: string): string => {
  try { parseScenario(scenarioWith(latency), 'h.yaml'); } catch (e) { if (e instanceof InputError) return e.message; throw e; }
  throw new Error('no error');
};
const draws = (spec: LatencySpec, n: number, seed = 'histogram'): Float64Array => {
  const sampler = compileLatency(spec);
  const rng = chunkRng(seed, 0);
  return Float64Array.from({ length: n }, () => sampler.sample(rng));
};

describe('the histogram form', () => {
  it('reads cumulative buckets in seconds, the total as a last bucket at Infinity, all in ms', () => {
    expect(valuesOf(VECTOR)).toEqual([{ le: 0, count: 6 }, { le: 500, count: 11 }, { le: 1000, count: 14 }, { le: Infinity, count: 19 }]);
    expect(valuesOf('{dist: histogram, unit: ms, buckets: [{le: 250, count: 3}]}')).toEqual([{ le: 250, count: 3 }]);
    expect(valuesOf('{dist: histogram, unit: us, buckets: [{le: 250, count: 3}], total: 3}')).toEqual([{ le: 0.25, count: 3 }]);
  });

  it('has the known answer of histogram_quantile: the vector\'s median is 0.35 s', () => {
    const values = valuesOf(VECTOR);
    expect(histogramQuantile(values, 0.5)).toBeCloseTo(350, 12);
    // Prometheus's other readings: a rank in the first bucket, whose bound is 0, is 0; a rank in
    // the +Inf bucket is the highest finite bound; elsewhere linear inside the bucket.
    expect(histogramQuantile(values, 0.25)).toBe(0);
    expect(histogramQuantile(values, 0.75)).toBe(1000);
    expect(histogramQuantile(values, 0.6)).toBeCloseTo(500 + 500 * (0.6 * 19 - 11) / 3, 12);
    expect(histogramQuantile(values, 1)).toBe(1000);
    expect(histogramShareAbove(values, 350)).toBeCloseTo(0.5, 12);
    expect(histogramShareAbove(values, 1000)).toBe(0);
    expect(histogramShareAbove(values, 999.999)).toBeCloseTo(5 / 19, 5);
    expect(aboveEveryBound(values)).toBeCloseTo(5 / 19, 15);
  });

  it('samples that distribution: the median of 2·10^5 draws is 350 ms', () => {
    const n = 200_000;
    const xs = draws(loaded(VECTOR), n).sort();
    // The sample median's standard error is sqrt(0.25 / n) / f, with f the density at 350 ms:
    // 5 of 19 observations spread over 500 ms, f = 5.263e-4 per ms; se = 0.001118 / 5.263e-4 = 2.12 ms, 4 se = 8.5 ms.
    expect(Math.abs((xs[n / 2] as number) - 350)).toBeLessThan(8.5);
    // 6 of 19 at exactly 0, 5 of 19 (the +Inf bucket) at exactly 1 s, nothing outside [0, 1 s].
    const share = (f: (x: number) => boolean) => xs.filter(f).length / n;
    expect(Math.abs(share((x) => x === 0) - 6 / 19)).toBeLessThan(4 * seProportion(6 / 19, n));
    expect(Math.abs(share((x) => x === 1000) - 5 / 19)).toBeLessThan(4 * seProportion(5 / 19, n));
    expect(share((x) => x > 500 && x < 1000)).toBeGreaterThan(0);
    expect(xs[0]).toBe(0);
    expect(xs[n - 1]).toBe(1000);
    // Uniform inside a bucket: of the 5 of 19 in (0, 500 ms], half lie below 250 ms.
    expect(Math.abs(share((x) => x > 0 && x < 250) - 2.5 / 19)).toBeLessThan(4 * seProportion(2.5 / 19, n));
  });

  it('takes the last bucket\'s count as the total when none is written, and skips empty buckets', () => {
    const spec = loaded('{dist: histogram, unit: ms, buckets: [{le: 100, count: 0}, {le: 200, count: 0}, {le: 300, count: 10}]}');
    const xs = draws(spec, 10_000);
    expect(xs.every((x) => x >= 200 && x <= 300)).toBe(true);
  });

  it('runs in the chunk engine and in the coupled one (service.capacity)', () => {
    const base = `actions: 20000\nservice:\n  latency: ${VECTOR}\nnetwork: {request_loss: 0, reply_loss: 0}\nclient:\n  timeout: 2s\n  retries: 0\n`;
    const alone = sim(base, 20_000);
    const coupled = coupledRun(base.replace('service:\n', 'service:\n  capacity: {workers: 1000}\n'), '1', true).metrics;
    for (const m of [alone, coupled]) {
      // No attempt is longer than 1 s, so none times out at 2 s, and nothing is lost: a call is one
      // draw. The median of 20,000 has se 0.5 / sqrt(20000) / 5.263e-4 = 6.7 ms (4 se: 27 ms), and
      // the latency sketch adds at most 0.5% (1.8 ms): 30 ms.
      expect(m.handler_over_timeout_fraction).toBe(0);
      expect(m.unknown_outcomes_per_1000.value).toBe(0);
      expect(Math.abs((m.call_latency_ms.p50 as number) - 350)).toBeLessThan(30);
    }
  });

  it('runs in the lab written inline, or from a file\'s buckets the page carries; a file it does not carry is refused with what to do', () => {
    const request = (text: string, histograms: RunRequest['histograms'] = {}): RunRequest => ({ kind: 'run', id: 1, text, source: 'h.yaml', overrides: [], seed: '1', data: {}, histograms, command: 'idem-sim run h.yaml', version: 'test', name: 'h' });
    const r = labRun(request(`actions: 2000\nservice:\n  latency: ${VECTOR}\n`));
    expect((r.metrics['call_latency_ms'] as { p50: number }).p50).toBeGreaterThan(0);
    // The same buckets, written inline (seconds) and carried from a file (ms, the +Inf bucket as null): the same run.
    const inline = labRun(request('actions: 2000\nservice:\n  latency: {dist: histogram, buckets: [{le: 0.1, count: 6}, {le: 0.5, count: 11}, {le: 1, count: 14}], total: 19}\n'));
    const file = { file: 'm.prom', format: null, metric: 'lat{route="a"}', unit: null };
    const fromFile = labRun(request('actions: 2000\nservice:\n  latency: {dist: histogram, file: m.prom, metric: \'lat{route="a"}\'}\n',
      { [histogramKey(file)]: [[100, 6], [500, 11], [1000, 14], [null, 19]] }));
    expect(fromFile.metrics).toEqual(inline.metrics);
    let refused: unknown;
    try { labRun(request('service:\n  latency: {dist: histogram, file: m.prom}\n', { [histogramKey(file)]: [[100, 6], [null, 19]] })); } catch (e) { refused = e; }
    expect(labError(refused).message).toMatch(/^h\.yaml:2:\d+, key service\.latency\.file: the page holds no buckets for the latency histogram file "m\.prom"\. Make the page with `idem-sim lab` on the scenario that names this file and metric/);
  });

  it('refuses a histogram that is not one, at its line and key', () => {
    expect(errorOf('{dist: histogram, buckets: [{le: 1, count: 5}, {le: 0.5, count: 6}]}'))
      .toMatch(/h\.yaml:2:\d+, key service\.latency\.buckets\[1\]\.le: the bounds are not in order: bucket 2's bound 0\.5 is not above bucket 1's, 1\. List the buckets/);
    expect(errorOf('{dist: histogram, buckets: [{le: 0.5, count: 6}, {le: 1, count: 5}]}'))
      .toMatch(/key service\.latency\.buckets\[1\]\.count: the counts are not cumulative: 5 observations at most 1, fewer than the 6 at most 0\.5\. .*add to each the ones before it/);
    expect(errorOf('{dist: histogram, buckets: [{le: 0.5, count: 0}, {le: 1, count: 0}]}')).toMatch(/key service\.latency: the histogram is empty|key service\.latency\.buckets: the histogram is empty/);
    expect(errorOf('{dist: histogram, buckets: [{le: 1, count: 5}], total: 4}')).toMatch(/key service\.latency\.total: the total \(4\) is below the last bucket's count \(5\)/);
    expect(errorOf('{dist: histogram}')).toMatch(/key service\.latency\.buckets: the histogram has neither buckets nor a file/);
    expect(errorOf('{dist: histogram, buckets: [{le: 1, count: 5}], file: a.prom}')).toMatch(/key service\.latency\.buckets: buckets are given with a file/);
    expect(errorOf('{dist: histogram, buckets: [{le: 1, count: 5}], metric: x}')).toMatch(/key service\.latency\.metric: metric chooses what a file holds, but no file is given/);
    expect(errorOf('{dist: histogram, buckets: [{le: .inf, count: 5}]}')).toMatch(/key service\.latency\.buckets\[0\]\.le/);
    expect(errorOf('{dist: histogram, buckets: [{le: 1e12, count: 5}]}')).toMatch(/bucket 1's bound 1000000000000 is longer than 10 years/);
  });

  it('is fingerprinted with a file\'s buckets, so that parts run on other data are not merged', () => {
    const withValues = (values: { le: number; count: number }[]): Scenario => ({ ...DEFAULT_SCENARIO, service: { ...DEFAULT_SCENARIO.service,
      latency: { dist: 'histogram', buckets: [], total: null, unit: null, file: 'm.prom', format: null, metric: null, values } } });
    const a = scenarioFingerprint(withValues([{ le: 500, count: 11 }, { le: Infinity, count: 19 }]));
    expect(a).toMatch(/^[0-9a-f]{64}:[0-9a-f]{64}$/);
    expect(scenarioFingerprint(withValues([{ le: 500, count: 11 }, { le: Infinity, count: 19 }]))).toBe(a);
    expect(scenarioFingerprint(withValues([{ le: 500, count: 12 }, { le: Infinity, count: 19 }]))).not.toBe(a);
    // Written buckets are in the scenario itself: its own hash covers them.
    expect(scenarioFingerprint(parseRunnable(scenarioWith(VECTOR)))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads counts that fall by a rounding error as cumulative, raised to the one before', () => {
    expect(histogramValues([{ le: 1, count: 10 }, { le: 2, count: 10 - 1e-12 }], null, 1)).toEqual([{ le: 1, count: 10 }, { le: 2, count: 10 }]);
  });
});
