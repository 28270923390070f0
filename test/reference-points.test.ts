/**
 * The guide's reference points ("Reference points from the guide" in MODEL.md) must come
 * out of the model. Each tolerance is 4 standard errors of the estimate, from the binomial
 * variance for a share of attempts or from the run's own confidence interval for a rate:
 * a correct model fails such a check about once in 16,000 seeds, and the seed is fixed.
 */
import { describe, expect, it } from 'vitest';
import { keyStoreSize } from '../src/results/metrics.js';
import { normalTail, se, seProportion, sim } from './helpers.js';

const N = 200_000;

describe('timeouts and unknown outcomes (lognormal 300ms, sigma 0.6, timeout 1s)', () => {
  const m = sim('idempotency: {scope: none}', N);
  const attempts = m.attempts_per_action.value * m.actions;
  const pSlow = normalTail(Math.log(1000 / 300) / 0.6); // P(Z > 2.007) = 0.0224

  it('about 2.2% of attempts outlast the timeout', () => {
    expect(pSlow).toBeCloseTo(0.0224, 4);
    // With no key every attempt reaches the handler.
    expect(Math.abs(m.handler_over_timeout_fraction - pSlow)).toBeLessThan(4 * seProportion(pSlow, attempts));
  });

  it('about 4.2% of attempts end unknown with 2% lost replies', () => {
    const pUnknown = pSlow + (1 - pSlow) * 0.02; // slow, or on time with the reply lost
    expect(pUnknown).toBeCloseTo(0.042, 3);
    expect(Math.abs(m.attempts_unknown_fraction - pUnknown)).toBeLessThan(4 * seProportion(pUnknown, attempts));
  });

  it('blind retries (3) give about 44 duplicates per 1000, all from transport', () => {
    const q = normalTail(Math.log(1000 / 300) / 0.6) * 0.98 + 0.02;
    // Each retry happens only if every attempt before it ended unknown: q + q^2 + q^3 extra executions.
    const expected = 1000 * (q + q ** 2 + q ** 3);
    expect(expected).toBeGreaterThan(43);
    expect(expected).toBeLessThan(45);
    expect(Math.abs(m.duplicates_per_1000.value - expected)).toBeLessThan(4 * se(m.duplicates_per_1000));
    expect(m.duplicates_per_1000.transport.value).toBeGreaterThan(0.999 * m.duplicates_per_1000.value);
  });
});

describe('a slow dependency (median 1200ms) behind a 600ms timeout', () => {
  it('about 88% of attempts time out, with or without a key', () => {
    const p = normalTail(Math.log(600 / 1200) / 0.6); // P(Z > -1.155) = 0.876
    expect(p).toBeCloseTo(0.876, 3);
    for (const scope of ['none', 'call']) {
      const m = sim(`service: {latency: {median: 1200ms, sigma: 0.6}}\nclient: {timeout: 600ms}\nidempotency: {scope: ${scope}}`, 50_000);
      // Handler runs: every attempt without a key; with a key, only those not answered by 409 or a stored result.
      const runs = m.executions_per_action.value * m.actions;
      expect(Math.abs(m.handler_over_timeout_fraction - p)).toBeLessThan(4 * seProportion(p, runs));
    }
  });
});

describe('key store size', () => {
  it('50/s x 1h x 200 B = 180,000 keys, 36 MB; 24h = 4.32 M keys, 864 MB', () => {
    expect(keyStoreSize(1, 50, 3_600_000, 200)).toEqual({ keys: 180_000, key_store_mb: 36 });
    const day = keyStoreSize(1, 50, 86_400_000, 200);
    expect(day.keys).toBe(4_320_000);
    expect(day.key_store_mb).toBeCloseTo(864, 9);
  });

  it('an intent key at 50/s with 1h retention needs 36 MB (one record per action)', () => {
    const m = sim('idempotency: {scope: intent, retention: 1h}', 20_000);
    expect(m.keys_per_action.value).toBe(1);
    expect(m.keys).toBe(180_000);
    expect(m.key_store_mb).toBe(36);
  });

  it('peak live keys approaches the steady state once the run outlasts retention', () => {
    // 1 min retention, 50/s: 3,000 keys live in steady state; 30,000 actions last 10 minutes.
    const m = sim('idempotency: {scope: intent, retention: 1m}', 30_000);
    // One key an action; a second for the rare action re-planned after its key expired (a minute's
    // retention against re-plans up to a minute later: some 4 in 10^6 actions, 1 in these 30,000 on some seeds).
    expect(m.keys).toBeGreaterThanOrEqual(3_000);
    expect(m.keys).toBeLessThan(3_000 * 1.001);
    // Poisson fluctuation of 3,000 live keys is about 55; the peak over 10 windows sits a few sd above.
    expect(m.peak_live_keys).toBeGreaterThan(3_000);
    expect(m.peak_live_keys).toBeLessThan(3_000 + 5 * Math.sqrt(3_000));
  });
});
