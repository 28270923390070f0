/** A lognormal written as engineers quote latencies: two percentiles, or the mean and one. */
import { describe, expect, it } from 'vitest';
import { compileLatency } from '../src/model/latency.js';
import { chunkRng } from '../src/random/rng.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';

const Z99 = 2.3263478740408408, Z95 = 1.6448536269514722;
const latencyOf = (yaml: string) => parseScenario(`service:\n  latency: ${yaml}\n`, 'l.yaml').scenario.service.latency;
const errorOf = (yaml: string): string => {
  try { latencyOf(yaml); } catch (e) { if (e instanceof InputError) return e.message; throw e; }
  throw new Error('no error');
};

describe('a lognormal fitted to percentiles', () => {
  it('goes through both points exactly, and says what it was fitted to', () => {
    const l = latencyOf('{p50: 450ms, p99: 3s}');
    expect(l).toMatchObject({ dist: 'lognormal', median: 450, fitted_to: { p50: 450, p99: 3000 } });
    if (l.dist !== 'lognormal') throw new Error('not a lognormal');
    expect(l.sigma).toBeCloseTo(Math.log(3000 / 450) / Z99, 12);
    const p95 = latencyOf('{p95: 1s, p999: 10s}');
    if (p95.dist !== 'lognormal') throw new Error('not a lognormal');
    expect(p95.median * Math.exp(Z95 * p95.sigma)).toBeCloseTo(1000, 9);
    expect(latencyOf('{median: 450ms, p99: 3s}')).toMatchObject({ median: 450, fitted_to: { median: 450, p99: 3000 } });
  });

  it('fits the mean and one percentile: exp(mu + sigma^2/2) is the mean', () => {
    const l = latencyOf('{mean: 600ms, p50: 450ms}');
    if (l.dist !== 'lognormal') throw new Error('not a lognormal');
    expect(l.sigma).toBeCloseTo(Math.sqrt(2 * Math.log(600 / 450)), 12);
    const high = latencyOf('{mean: 500ms, p99: 3s}');
    if (high.dist !== 'lognormal') throw new Error('not a lognormal');
    expect(Math.exp(Math.log(high.median) + high.sigma ** 2 / 2)).toBeCloseTo(500, 9);
    expect(high.median * Math.exp(Z99 * high.sigma)).toBeCloseTo(3000, 9);
    expect(high.sigma).toBeLessThan(Z99); // of the two roots, the lighter tail
  });

  it('samples the fitted distribution: the 99th percentile of 10^5 draws is 3 s', () => {
    const sampler = compileLatency(latencyOf('{p50: 450ms, p99: 3s}') as never);
    const rng = chunkRng('fit', 0);
    const n = 100_000;
    const draws = Float64Array.from({ length: n }, () => sampler.sample(rng)).sort();
    // The sample quantile's standard error is sqrt(p(1-p)/n) / f(q): at p = 0.99 for this lognormal
    // f(q) = phi(z99) / (q sigma) = 0.02665 / (3000 * 0.8155), so se = 0.000315 / 1.089e-5 = 29 ms. 4 se: 116 ms.
    expect(Math.abs((draws[Math.floor(0.99 * n)] as number) - 3000)).toBeLessThan(116);
    // At the median f = 0.3989 / (450 * 0.8155) = 1.087e-3 and se = 0.0016 / 1.087e-3 = 1.45 ms; 4 se = 5.8 ms.
    expect(Math.abs((draws[n / 2] as number) - 450)).toBeLessThan(5.8);
  });

  it('refuses what has no lognormal, naming the key and the fix', () => {
    expect(errorOf('{p50: 450ms, p99: 300ms}')).toMatch(/l\.yaml:2:\d+, key service\.latency\.p99: p99 \(300ms\) is not above p50 \(450ms\)/);
    expect(errorOf('{p50: 1s, p90: 2s, p99: 3s}')).toMatch(/3 points are given \(p50, p90, p99\), but a lognormal has two parameters\. Give either \{median, sigma\}/);
    expect(errorOf('{p99: 3s}')).toMatch(/key service\.latency\.p99: only p99 is given/);
    expect(errorOf('{median: 1s, sigma: 0.5, p99: 3s}')).toMatch(/key service\.latency\.sigma: sigma is given with percentiles/);
    expect(errorOf('{median: 1s, p50: 1s}')).toMatch(/median and p50 are the same percentile/);
    expect(errorOf('{mean: 100ms, p50: 450ms}')).toMatch(/key service\.latency\.mean: no lognormal has this mean/);
    expect(errorOf('{p50: 0ms, p99: 1s}')).toMatch(/p50 is 0/);
    expect(errorOf('{dist: mixture, components: [{weight: 1, p50: 1s, p99: 100ms}]}')).toMatch(/key service\.latency\.components\[0\]\.p99: p99/);
  });
});
