/**
 * Key rows (docs/model.md v2, "Key store"): a key has at most one row, and the writes of one key
 * whose lifetimes overlap make one row, so keys_per_action, peak_live_keys and the steady state
 * keys = keys_per_action × rate × retention agree.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/exec/simulate.js';
import { parseRunnable } from './helpers.js';

const metricsOf = (yaml: string, actions = 20_000) => simulate({ ...parseRunnable(yaml), actions }, 'rows').metrics;

describe('key rows', () => {
  it('a lease shorter than the work: the takeover rewrites the same row (one row per action, not two)', () => {
    // Every handler takes 300 ms; the 150 ms timeout sends a retry after the 100 ms lease lapsed,
    // which takes the key over and executes again: two claims and two results of one key, all overlapping.
    const m = metricsOf('service:\n  latency: {dist: constant, value: 300ms}\nidempotency: {scope: intent, lease: 100ms}\nclient: {timeout: 150ms, retries: 3, backoff: {base: 10ms}}\nnetwork: {reply_loss: 0}\n');
    expect(m.executions_per_action.value).toBe(2);
    expect(m.keys_per_action).toEqual({ value: 1, ci95: [1, 1] });
    // 50/s × 1h × 1 row × 200 B: the guide's 36 MB.
    expect(m.keys).toBe(180_000);
    expect(m.key_store_mb).toBe(36);
    // The run (400 s) is shorter than the retention: every row is still live at its end.
    expect(m.peak_live_keys).toBe(20_000);
  });

  it('check_then_act: two results stored for one key make one row', () => {
    const m = metricsOf('idempotency: {scope: intent, claim: check_then_act}\nclient: {timeout: 200ms, retries: 3}\n');
    expect(m.executions_per_action.value).toBeGreaterThan(1.3); // the broken claim executes the retries too
    expect(m.keys_per_action.value).toBe(1);
    expect(m.peak_live_keys).toBe(20_000);
  });

  it('a fresh key per attempt is a row per attempt that reached the store', () => {
    const m = metricsOf('idempotency: {scope: attempt}\nnetwork: {reply_loss: 0}\n');
    expect(m.keys_per_action.value).toBeCloseTo(m.attempts_per_action.value, 12);
  });

  it('a short retention: the peak of live rows is the steady state keys, within its fluctuation', () => {
    // 50/s × 10 s: about 500 rows live. A row lives from its claim to 10 s after completion
    // (about 10.3 s with the lab's latency, +3%), and the peak is the largest of about 400
    // intervals' Poisson counts (sd 22): up to 4 sd above, +18%. So the peak lies in [1, 1.25] × keys.
    const m = metricsOf('idempotency: {scope: intent, retention: 10s}\n');
    expect(m.peak_live_keys).toBeGreaterThanOrEqual(m.keys);
    expect(m.peak_live_keys).toBeLessThanOrEqual(1.25 * m.keys);
  });
});
