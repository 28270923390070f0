/** The quantile sketch and its bins: the machinery behind large runs (threads, shards and precision through the real binary: scale.e2e.test.ts). */
import * as ss from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { binKey, binTable, LatencyBins, logKey } from '../src/engine/bins.js';
import { compileLatency } from '../src/model/latency.js';
import { chunkRng } from '../src/random/rng.js';

describe('quantile sketch', () => {
  it('quantiles within 1% of the exact ones on a known distribution', () => {
    const sample = compileLatency({ dist: 'lognormal', median: 300, sigma: 1.2 });
    const rng = chunkRng('sketch-test', 0);
    const n = 200_000;
    const xs = Float64Array.from({ length: n }, () => sample.sample(rng));
    const bins = new LatencyBins();
    for (const x of xs) bins.add(x);
    const sorted = Array.from(xs).sort((a, b) => a - b);
    for (const q of [0.01, 0.5, 0.9, 0.95, 0.99, 0.999]) {
      const exact = ss.quantileSorted(sorted, q);
      expect(Math.abs((bins.quantile(q) as number) - exact) / exact).toBeLessThanOrEqual(0.01);
    }
  });

  it('bins merged in any order give the same quantiles', () => {
    const a = new LatencyBins();
    const b = new LatencyBins();
    [1, 10, 100].forEach((x) => a.add(x));
    [1000, 0, 5].forEach((x) => b.add(x));
    const ab = new LatencyBins(); ab.addData(a.toData()); ab.addData(b.toData());
    const ba = new LatencyBins(); ba.addData(b.toData()); ba.addData(a.toData());
    expect(ab.toData()).toEqual(ba.toData());
    expect(ab.count).toBe(6);
    expect(ab.quantile(0)).toBe(0);
  });
});

describe('bins', () => {
  it('binKey puts every value in the same bin as the sketch library would', () => {
    const sample = compileLatency({ dist: 'lognormal', median: 300, sigma: 2 });
    const rng = chunkRng('bins-test', 0);
    const xs = Float64Array.from({ length: 50_000 }, () => sample.sample(rng));
    xs[0] = 0;
    const one = new LatencyBins();
    for (const x of xs) one.add(x);
    const all = new LatencyBins();
    all.addKeys(Int32Array.from(xs, binKey), xs.length);
    expect(all.toData()).toEqual(one.toData());
  });

  it("binKey's table gives the formula's bin for the doubles around every bin boundary and at its edges", () => {
    const { lowest, highest, boundaries } = binTable();
    // 40 binary orders of magnitude at 69.3 bins each.
    expect(boundaries.length).toBeGreaterThan(2700);
    const f = new Float64Array(1);
    const bits = new BigInt64Array(f.buffer);
    const around = (x: number, ulps: number): number[] => {
      f[0] = x;
      const at = bits[0] as bigint;
      return Array.from({ length: 2 * ulps + 1 }, (_, i) => { bits[0] = at + BigInt(i - ulps); return f[0] as number; });
    };
    // logKey's rounding can only move a boundary by a few doubles (a few ulps of log2(x) * 69.3).
    const xs = [...boundaries.flatMap((x) => around(x, 64)), ...around(lowest, 4), ...around(highest, 4),
      0, -0, -1, 1e-300, NaN, Infinity, -Infinity, Number.MAX_VALUE, Number.MIN_VALUE];
    const wrong = xs.filter((x) => binKey(x) !== logKey(x));
    expect(wrong).toEqual([]);
  });
});
