/**
 * Claim modes, server crashes, leases, transactions, error handling and the client's and
 * agent's knobs. Comparisons use common random numbers (same seed), so a knob that should
 * make no difference must give identical numbers, and one that should must move them.
 */
import { describe, expect, it } from 'vitest';
import { se, sim } from './helpers.js';

const SLOW = 'service: {latency: {median: 1200ms, sigma: 0.6}}\nclient: {timeout: 600ms}\n';
const N = 40_000;

describe('claim', () => {
  it('check_then_act duplicates retries that arrive while the first attempt is running', () => {
    const atomic = sim(`${SLOW}idempotency: {scope: intent, claim: atomic}`, N);
    const racy = sim(`${SLOW}idempotency: {scope: intent, claim: check_then_act}`, N);
    expect(atomic.duplicates_per_1000.value).toBe(0);
    expect(racy.duplicates_per_1000.transport.value).toBeGreaterThan(500);
    expect(racy.conflicts_409_per_1000.value).toBe(0); // nothing is ever "running"
    expect(atomic.conflicts_409_per_1000.value).toBeGreaterThan(1000);
  });
});

describe('server crashes', () => {
  // The model always re-plans a failed call, so only the key store decides whether an action is lost.
  const crashes = (extra: string) =>
    sim(`service: {crash_probability: 0.1, crash_after_effect: 0.5}\nagent: {replan_probability: 1}\nidempotency: {scope: intent${extra}}`, N);

  it('without a lease a crashed claim blocks its key until retention: actions are lost', () => {
    const m = crashes('');
    // Crash before the effect (5% of first attempts): every retry and re-plan meets 409 for an hour.
    expect(m.lost_per_1000.value).toBeGreaterThan(40);
    expect(m.duplicates_per_1000.value).toBe(0);
  });

  it('a lease lets a later call take the key over, bringing lost actions back', () => {
    const noLease = crashes('');
    const lease = crashes(', lease: 5s');
    expect(lease.lost_per_1000.value).toBeLessThan(noLease.lost_per_1000.value / 10);
    // The price: a crash after the effect leaves no result, so the taker-over runs it again.
    expect(lease.duplicates_per_1000.value).toBeGreaterThan(0);
  });

  it('transactional: effect and key commit together, so neither duplicates nor losses', () => {
    // A crash leaves neither effect nor claim, so the next attempt runs the action. With a
    // constant 300ms latency the crash is over before the client retries; losing an action
    // then takes 4 crashed attempts and no successful re-plan: 0.05^4 * 0.4 * 40,000 = 0.1 expected.
    const crashy = 'service: {latency: {dist: constant, value: 300ms}, crash_probability: 0.05, crash_after_effect: 0.5}\n';
    const m = sim(`${crashy}idempotency: {scope: intent, transactional: true}`, N);
    expect(m.duplicates_per_1000.value).toBe(0);
    expect(m.lost_per_1000.value).toBe(0);
    const lease = sim(`${crashy}idempotency: {scope: intent, lease: 5s}`, N);
    const noLease = sim(`${crashy}idempotency: {scope: intent}`, N);
    expect(lease.duplicates_per_1000.value).toBeGreaterThan(10); // after-effect crashes run again
    expect(noLease.lost_per_1000.value).toBeGreaterThan(10); // before-effect crashes block the key
  });
});

describe('5xx handling', () => {
  // Constant latency under the timeout: each attempt fails on its own with probability 0.2
  // (a slow 5xx would also turn the next retries into 409s).
  const errors = (mode: string) =>
    sim(`service: {latency: {dist: constant, value: 300ms}, error_rate: 0.2}\nidempotency: {scope: intent, on_error: ${mode}}`, N);

  it('release lets the retry run the action; store replays the 5xx, so the action is lost', () => {
    const release = errors('release');
    const store = errors('store');
    // Released: lost only if 4 attempts fail and no re-plan succeeds: 1000 * 0.2^4 * (0.4 + 0.6 * 0.2^4).
    const expectedLost = 1000 * 0.2 ** 4 * (0.4 + 0.6 * 0.2 ** 4);
    expect(Math.abs(release.lost_per_1000.value - expectedLost)).toBeLessThan(4 * se(release.lost_per_1000));
    // Stored: the first attempt's 5xx (20%) is replayed to every later request with the key.
    expect(Math.abs(store.lost_per_1000.value - 200)).toBeLessThan(4 * se(store.lost_per_1000));
    expect(store.dedup_hits_per_1000.value).toBeGreaterThan(release.dedup_hits_per_1000.value);
  });
});

describe('client', () => {
  it('conflict_retry_after spaces retries after a 409, so fewer attempts hit a running call', () => {
    const plain = sim(`${SLOW}idempotency: {scope: intent}`, N);
    const spaced = sim(`${SLOW}idempotency: {scope: intent, conflict_retry_after: 2s}`, N);
    expect(spaced.conflicts_409_per_1000.value).toBeLessThan(plain.conflicts_409_per_1000.value / 2);
    expect(spaced.unknown_outcomes_per_1000.value).toBeLessThan(plain.unknown_outcomes_per_1000.value);
  });

  it('a deadline stops retries: no call outlasts deadline + timeout', () => {
    const slow = 'service: {latency: {median: 1200ms, sigma: 0.6}}\n';
    const m = sim(`${slow}client: {timeout: 600ms, retries: 10, deadline: 2s}\nidempotency: {scope: intent}`, N);
    expect(m.call_latency_ms.p99 as number).toBeLessThanOrEqual((2000 + 600) * 1.01);
    const unbounded = sim(`${slow}client: {timeout: 600ms, retries: 10}\nidempotency: {scope: intent}`, N);
    expect(unbounded.attempts_per_action.value).toBeGreaterThan(m.attempts_per_action.value);
  });

  it('request loss never executes: with no retries and no re-plans, lost = request_loss', () => {
    const m = sim('network: {request_loss: 0.1, reply_loss: 0}\nclient: {retries: 0}\nagent: {replan_probability: 0}', N);
    expect(Math.abs(m.lost_per_1000.value - 100)).toBeLessThan(4 * se(m.lost_per_1000));
    expect(m.duplicates_per_1000.value).toBe(0);
  });

  it('zero jitter gives the exact backoff: retries spaced base * multiplier^(j-1)', () => {
    // Every attempt times out at 100ms (constant latency 1s); no re-plans. Call = 4 timeouts + 100 + 200 + 400.
    const m = sim('service: {latency: {dist: constant, value: 1s}}\nclient: {timeout: 100ms, backoff: {jitter: none}}\nagent: {replan_probability: 0}', 1000);
    const expected = 4 * 100 + 100 + 200 + 400;
    expect(Math.abs((m.call_latency_ms.p50 as number) - expected)).toBeLessThanOrEqual(expected * 0.01);
  });
});

describe('agent', () => {
  it('verify_before_replan skips re-plans of actions that already ran', () => {
    const blind = sim(`${SLOW}idempotency: {scope: call}`, N);
    const verify = sim(`${SLOW}agent: {verify_before_replan: true}\nidempotency: {scope: call}`, N);
    expect(blind.duplicates_per_1000.replan.value).toBeGreaterThan(300);
    expect(verify.duplicates_per_1000.replan.value).toBeLessThan(1);
    expect(verify.lost_per_1000.value).toBe(0);
  });

  it('a full fingerprint answers drifted re-plans under an intent key with 422', () => {
    const m = sim(`${SLOW}agent: {arg_drift_probability: 1}\nidempotency: {scope: intent, fingerprint: full}`, N);
    expect(m.mismatches_422_per_1000.value).toBeGreaterThan(300);
    expect(m.duplicates_per_1000.value).toBe(0);
    const none = sim(`${SLOW}agent: {arg_drift_probability: 1}\nidempotency: {scope: intent, fingerprint: none}`, N);
    expect(none.mismatches_422_per_1000.value).toBe(0);
  });

  it('max_replans bounds re-plans per step', () => {
    const m = sim(`${SLOW}agent: {replan_probability: 1, max_replans: 2}\nidempotency: {scope: call}`, N);
    // At most 2 re-plans per action, each at most one execution per call under a call key.
    expect(m.duplicates_per_1000.replan.value).toBeLessThanOrEqual(2000);
    expect(m.duplicates_per_1000.replan.value).toBeGreaterThan(1000);
  });
});

describe('edge cases of the key store', () => {
  it('transactional changes nothing without a key to commit with', () => {
    const crashes = 'service: {crash_probability: 0.2, crash_after_effect: 1}\n';
    const plain = sim(`${crashes}idempotency: {scope: none}`, 10_000);
    const tx = sim(`${crashes}idempotency: {scope: none, transactional: true}`, 10_000);
    expect(tx).toEqual(plain);
    expect(plain.duplicates_per_1000.value).toBeGreaterThan(100);
  });

  it('a crashed claim stays running until its lease lapses, even past retention', () => {
    const crashes = 'service: {crash_probability: 0.1, crash_after_effect: 0}\nagent: {replan_probability: 1}\n';
    const noLease = sim(`${crashes}idempotency: {scope: intent, retention: 2s}`, N);
    const longLease = sim(`${crashes}idempotency: {scope: intent, retention: 2s, lease: 30s}`, N);
    // Re-plans come 2-60 s later: without a lease the claim is gone after 2 s; with a 30 s
    // lease, re-plans in the first 30 s still meet it (409) and more actions are lost.
    expect(longLease.lost_per_1000.value).toBeGreaterThan(noLease.lost_per_1000.value + 4 * Math.hypot(se(longLease.lost_per_1000), se(noLease.lost_per_1000)));
  });

  it('a key is one row: several stored results of one key count once, in keys_per_action and in peak_live_keys', () => {
    // check_then_act under a slow service stores several results per intent key; with 1h
    // retention and a 400 s run nothing expires, so the peak is one row per action.
    const m = sim(`${SLOW}idempotency: {scope: intent, claim: check_then_act, retention: 1h}`, 20_000);
    expect(m.executions_per_action.value).toBeGreaterThan(1.5);
    expect(m.keys_per_action.value).toBe(1);
    expect(m.peak_live_keys).toBeLessThanOrEqual(20_000);
    expect(m.peak_live_keys).toBeGreaterThan(20_000 - 50); // rows still to be created after the last grid instant
  });
});
