/**
 * Each key scope removes what the guide says it removes, and no more. Where a rate is
 * compared with a theoretical value, the tolerance is 4 standard errors from the run's
 * confidence interval (or the binomial variance); where two runs are compared, it is
 * 4 standard errors of the difference, sqrt(se1^2 + se2^2). Seeds are fixed.
 */
import { describe, expect, it } from 'vitest';
import { se, seProportion, sim } from './helpers.js';

/** Mission 2's slow downstream: most calls fail unknown, so the model re-plans often. */
const SLOW = 'service: {latency: {median: 1200ms, sigma: 0.6}}\nclient: {timeout: 600ms}\n';
const N = 40_000;

describe('scope none and attempt', () => {
  it('a key minted per attempt protects nothing: same duplicates as no key', () => {
    const none = sim(`${SLOW}idempotency: {scope: none}`, N);
    const attempt = sim(`${SLOW}idempotency: {scope: attempt}`, N);
    // Common random numbers: the same draws, and a fresh key never matches, so identical executions.
    expect(attempt.duplicates_per_1000).toEqual(none.duplicates_per_1000);
    expect(attempt.keys_per_action.value).toBeCloseTo(attempt.attempts_per_action.value, 9);
    expect(none.keys_per_action.value).toBe(0);
  });
});

describe('scope call', () => {
  const none = sim(`${SLOW}idempotency: {scope: none}`, N);
  const call = sim(`${SLOW}idempotency: {scope: call}`, N);

  it('removes transport duplicates', () => {
    expect(none.duplicates_per_1000.transport.value).toBeGreaterThan(1000);
    // What is left is order, not repetition: a re-plan that commits before a slow original
    // makes the original's execution the later one (well under 1 per 1000).
    expect(call.duplicates_per_1000.transport.value).toBeLessThan(1);
  });

  it('does not remove re-plan duplicates: each re-plan has a new call id', () => {
    // 88% of calls end unknown and the model re-plans 60% of them: about 0.88 * 0.6 * 1000.
    expect(call.duplicates_per_1000.replan.value).toBeGreaterThan(300);
    expect(call.conflicts_409_per_1000.value).toBeGreaterThan(1000); // retries meet the running first attempt
  });
});

describe('scope intent', () => {
  it('removes re-plan and replay duplicates within retention', () => {
    const m = sim(`${SLOW}runtime: {crash_probability: 0.2}\nidempotency: {scope: intent, retention: 1h}`, N);
    expect(m.duplicates_per_1000.value).toBe(0);
    expect(m.dedup_hits_per_1000.value).toBeGreaterThan(300);
    expect(m.lost_per_1000.value).toBe(0);
  });

  it('5 min retention misses about 83% of replays resuming at 2-20 min; 1h misses none', () => {
    const crash = 0.2;
    const short = sim(`runtime: {crash_probability: ${crash}}\nidempotency: {scope: intent, retention: 5m}`, 100_000);
    const long = sim(`runtime: {crash_probability: ${crash}}\nidempotency: {scope: intent, retention: 1h}`, 100_000);
    const missed = (20 - 5) / (20 - 2); // resume delay U(2, 20) min beyond 5 min: 0.833
    const perAction = crash * missed; // one replay per crashed step, a duplicate when missed
    expect(Math.abs(short.duplicates_per_1000.replay.value / 1000 - perAction))
      .toBeLessThan(4 * seProportion(perAction, short.actions));
    expect(short.duplicates_per_1000.replay.value / 1000 / crash).toBeCloseTo(0.83, 1);
    expect(long.duplicates_per_1000.value).toBe(0);
  });
});

describe('scope business', () => {
  it('merges twins: a legitimate second request is answered with its sibling\'s result and lost', () => {
    const twins = 'workload: {twin_probability: 0.2}\n';
    const business = sim(`${twins}idempotency: {scope: business}`, N);
    const intent = sim(`${twins}idempotency: {scope: intent}`, N);
    const twinShare = 0.2 / 1.2; // twins among all actions
    expect(Math.abs(business.merged_per_1000.value / 1000 - twinShare)).toBeLessThan(4 * seProportion(twinShare, business.actions));
    expect(business.lost_per_1000.value).toBeGreaterThanOrEqual(business.merged_per_1000.value);
    expect(intent.lost_per_1000.value).toBe(0);
    expect(intent.merged_per_1000.value).toBe(0);
  });

  it('with a full fingerprint the twin gets a 422 instead (its free text differs)', () => {
    const m = sim('workload: {twin_probability: 0.2}\nidempotency: {scope: business, fingerprint: full}', N);
    expect(m.mismatches_422_per_1000.value).toBeGreaterThan(100);
    expect(m.merged_per_1000.value).toBe(0);
  });
});

describe('scope text', () => {
  it('misses re-plans whose free text drifted, and only those', () => {
    const at = (drift: number) => sim(`${SLOW}agent: {arg_drift_probability: ${drift}}\nidempotency: {scope: text}`, N);
    const call = sim(`${SLOW}idempotency: {scope: call}`, N);
    expect(at(0).duplicates_per_1000.replan.value).toBe(0);
    const half = at(0.5).duplicates_per_1000.replan;
    const expected = 0.5 * call.duplicates_per_1000.replan.value;
    expect(Math.abs(half.value - expected)).toBeLessThan(4 * Math.hypot(se(half), 0.5 * se(call.duplicates_per_1000.replan)));
  });
});
