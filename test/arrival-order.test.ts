import { describe, expect, it } from 'vitest';
import { ArrivalOrder } from '../src/engine/arrival-order.js';
import { sortedPlaces } from '../src/engine/arrivals.js';
import { chunkRng } from '../src/random/rng.js';

describe('ArrivalOrder', () => {
  it('orders places as a stable comparison sort does, uniform or bunched, with ties and the span itself', () => {
    const rng = chunkRng('arrival-order', 0);
    const order = new ArrivalOrder();
    for (const [m, span, shape] of [[1, 10, 'uniform'], [700, 330_000, 'uniform'], [5000, 1, 'bunched'], [300, 50, 'ties'], [2, 0, 'ties']] as const) {
      const places = new Float64Array(m + 3).fill(-7); // past m: not read
      for (let e = 0; e < m; e++) {
        const u = rng.next();
        places[e] = shape === 'uniform' ? u * span : shape === 'bunched' ? span * u ** 8 : Math.floor(u * 4) * (span / 4);
      }
      places[m - 1] = span;
      const got = Array.from(order.sort(places, m, span).subarray(0, m));
      const want = Array.from({ length: m }, (_, e) => e).sort((a, b) => (places[a] as number) - (places[b] as number) || a - b);
      expect(got, `${m} ${shape}`).toEqual(want);
    }
  });
});

describe('sortedPlaces', () => {
  it('gives m places on [0, span] in increasing order, uniform (Kolmogorov-Smirnov)', () => {
    const m = 20_000, span = 330_000;
    const into = new Float64Array(m + 1);
    sortedPlaces(chunkRng('sorted-places', 0), into, m, span);
    let d = 0;
    for (let j = 0; j < m; j++) {
      const x = (into[j] as number) / span;
      expect(x).toBeGreaterThanOrEqual(j === 0 ? 0 : (into[j - 1] as number) / span);
      d = Math.max(d, Math.abs(x - (j + 1) / m), Math.abs(x - j / m));
    }
    expect(into[m - 1]).toBeLessThanOrEqual(span);
    // The KS statistic of m uniform order statistics: sqrt(m)·D exceeds 1.95 with chance 0.001.
    expect(Math.sqrt(m) * d).toBeLessThan(1.95);
  });
});
