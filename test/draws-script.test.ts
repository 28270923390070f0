/**
 * One uniform settles a group's first six decisions (engine/draws.ts): the first to fail is k
 * with chance reach[k] − reach[k + 1], none with reach[6]; and the engine's cut at the timeout
 * puts every latency on the side the engine's own test (latency × multiplier <= timeout) does.
 */
import { describe, expect, it } from 'vitest';
import { latencyCut } from '../src/engine/compile.js';
import { D_NONE, failChances, lastDecisionOf, reachOf } from '../src/engine/draws.js';
import { nextUp } from '../src/model/latency/next-up.js';
import { chunkRng } from '../src/random/rng.js';

describe('a script of six decisions', () => {
  const fail = [0.1, 0.05, 0.2, 0.1, 0.05, 0.1];
  const reach = reachOf(fail, 1 - (fail[2] as number));

  it('reach is the product of the pass chances, and a decision of chance 0 never fails first', () => {
    expect(reach[0]).toBe(1);
    expect(reach[D_NONE]).toBeCloseTo(0.9 * 0.95 * 0.8 * 0.9 * 0.95 * 0.9, 15);
    const none = reachOf([0, 0.3, 0, 0, 0, 0], 1);
    expect(none[1]).toBe(1);
    expect(none[2]).toBeCloseTo(0.7, 15);
    expect(none[3]).toBe(none[2]);
  });

  it('the first to fail is k as often as its chance says', () => {
    const n = 400_000;
    const counts = new Array<number>(D_NONE + 1).fill(0);
    const rng = chunkRng('script', 0);
    for (let i = 0; i < n; i++) {
      const u = rng.next();
      let k = 0;
      while (k < D_NONE && u < (reach[k + 1] as number)) k++;
      counts[u < (reach[D_NONE] as number) ? D_NONE : k]!++;
    }
    for (let k = 0; k <= D_NONE; k++) {
      const p = k === D_NONE ? (reach[D_NONE] as number) : (reach[k] as number) - (reach[k + 1] as number);
      // 4 standard errors of a share of n.
      expect(Math.abs((counts[k] as number) / n - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / n));
    }
  });

  it('ends with the last decision that can fail (the latency at least), a chance of 5e-324 included', () => {
    expect(lastDecisionOf(failChances({ twinP: 0, requestLoss: 0, crashCut: 0, replyLoss: 0.02, maxReplays: 1, crashP: 0 } as never, 0.02))).toBe(4);
    expect(lastDecisionOf([0, 0, 0.1, 0, 0, 0])).toBe(2);
    expect(lastDecisionOf([0, 0, 0, 0, 0, 5e-324])).toBe(5);
  });
});

describe('the cut at the timeout under a multiplier', () => {
  it('is the largest latency whose product with the multiplier is within the timeout', () => {
    for (const [timeout, scale] of [[1100, 1.1], [770, 1.1], [1000, 3], [600, 0.7], [1000, 1]] as const) {
      const a = latencyCut(timeout, scale);
      expect(a * scale).toBeLessThanOrEqual(timeout);
      expect(nextUp(a) * scale).toBeGreaterThan(timeout);
    }
    // 1100 / 1.1 rounds below 1000, though 1000 × 1.1 is 1100: a constant 1000 ms is within.
    expect(1100 / 1.1).toBeLessThan(1000);
    expect(latencyCut(1100, 1.1)).toBeGreaterThanOrEqual(1000);
  });
});
