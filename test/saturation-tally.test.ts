/**
 * The saturated time per bucket (engine/coupled/saturation.ts's SaturationTally, the lab's chart
 * over time): split at the buckets' edges, it counts each episode once, so its buckets inside the
 * load sum to saturated_share × T (the same episodes, only added in another order: equal up to
 * float rounding), and the run's numbers are those of a run without it.
 */
import { describe, expect, test } from 'vitest';
import { SaturationTally } from '../src/engine/coupled/saturation.js';
import { simulate } from '../src/exec/simulate.js';
import { parseRunnable } from './helpers.js';

const MIN = 60_000;

/** capacity-storm.yaml's service for 8 minutes, its pause at minute 3: the storm outlives the pause and the load. */
const STORM = `load: {rate_per_s: 50, duration: 8m}
service:
  latency: {median: 300ms, sigma: 0.6}
  capacity: {workers: 26}
client: {timeout: 1s, retries: 3}
incidents:
  - {name: pause, from: 3m, to: 210s, service: {capacity: {workers: 0}}}
`;

describe('SaturationTally', () => {
  test('an episode is split at the buckets\' edges', () => {
    const t = new SaturationTally(1000);
    t.add(500, 2250);
    t.add(4000, 4000.5);
    expect(t.ms).toEqual([500, 1000, 250, 0, 0.5]);
  });

  for (const seed of ['1', '2']) {
    test(`on capacity-storm's service (seed ${seed}): its buckets in the load sum to saturated_share × T, and the drain after it is counted`, () => {
      const scenario = parseRunnable(STORM);
      const step = 2000;
      const tally = new SaturationTally(step);
      const run = simulate(scenario, seed, step, tally);
      const T = 8 * MIN;
      const share = run.metrics.saturated_share as number;
      const inLoad = tally.ms.slice(0, T / step).reduce((a, b) => a + b, 0);
      // The same episodes' lengths summed in another order: equal to 1e-9 of T (float rounding).
      expect(Math.abs(inLoad - share * T)).toBeLessThan(1e-9 * T);
      expect(share).toBeGreaterThan(0.5);
      // Every worker busy in every bucket from a minute after the pause to the load's end, and past it (the drain).
      for (let b = (4.5 * MIN) / step; b < T / step; b++) expect(tally.ms[b]).toBe(step);
      expect(tally.ms.length).toBeGreaterThan(T / step);
      expect(tally.ms[T / step]).toBeGreaterThan(0);
      // No bucket holds more than its length; the run's numbers are a run's without the tally.
      expect(Math.max(...tally.ms)).toBeLessThanOrEqual(step);
      expect(run.metrics).toEqual(simulate(scenario, seed, step).metrics);
    });
  }
});
