/**
 * The guards of docs/model.md's "Capacity": the retry budget's arithmetic, the breaker's states
 * on a hand-computed sequence, queue order under overload, and drop_expired.
 */
import { DDSketch } from '@datadog/sketches-js';
import { describe, expect, test } from 'vitest';
import { SKETCH_RELATIVE_ACCURACY } from '../src/engine/bins.js';
import { Breaker } from '../src/engine/coupled/breaker.js';
import { RetryBudget } from '../src/engine/coupled/budget.js';
import { LatencyBins } from '../src/engine/bins.js';
import { ERR_5XX, NO_REPLY } from '../src/engine/attempt.js';
import { C } from '../src/model/counters.js';
import { coupledBlocks } from './coupled-helpers.js';

const sum = (blocks: ReturnType<typeof coupledBlocks>, k: number) => blocks.reduce((a, o) => a + (o.sum[k] as number), 0);

describe('retry budget', () => {
  test('500 tokens with every attempt timing out send exactly 50 retries, then deny every other', () => {
    const blocks = coupledBlocks(`actions: 200
load: {rate_per_s: 10}
network: {request_loss: 1}
client: {timeout: 100ms, retries: 3, retry_budget: aws-standard}
agent: {replan_probability: 0}
`, '3', true);
    expect(sum(blocks, C.attempts)).toBe(200 + 50);
    // Every action is either denied a retry once or ran all 3 retries, which at most 50 / 3 did.
    const denied = sum(blocks, C.budget_denied);
    expect(denied).toBeLessThanOrEqual(200);
    expect(denied).toBeGreaterThanOrEqual(200 - Math.floor(50 / 3));
  });

  test('a success gives back what its retry took, or the refund after a first attempt, never above the size', () => {
    const b = new RetryBudget({ tokens: 20, retry_cost: 5, timeout_cost: 10, success_refund: 1 });
    b.grow(4);
    expect(b.allowsRetry(0, NO_REPLY)).toBe(true); // a timeout: 10
    expect(b.allowsRetry(1, ERR_5XX)).toBe(true); // a 5xx: 5
    expect(b.left).toBe(5);
    expect(b.allowsRetry(2, NO_REPLY)).toBe(false); // 10 needed, 5 left: denied, nothing taken
    expect(b.left).toBe(5);
    b.succeeded(1, false); // actor 1's retry took 5
    expect(b.left).toBe(10);
    b.succeeded(3, true); // a call's first attempt: the refund
    expect(b.left).toBe(11);
    b.succeeded(0, false); // actor 0's retry took 10
    expect(b.left).toBe(20); // capped at the size
  });
});

describe('circuit breaker', () => {
  test('opens, rejects, probes and closes on a hand-computed sequence', () => {
    // failure_rate 0.5 over (e - 10s, e], at least 4 outcomes; open for 5s.
    const br = new Breaker({ failure_rate: 0.5, window: 10_000, min_calls: 4, open_for: 5_000 });
    br.record(1000, false, 0, 1);
    br.record(2000, true, 2, 1);
    br.record(3000, true, 4, 1); // 3 outcomes: below min_calls, closed
    expect(br.allowsSend(3500, 6, 1)).toBe(true);
    br.record(13_500, true, 6, 1); // window (3.5s, 13.5s]: only this one; closed
    expect(br.opened).toBe(0);
    br.record(14_000, false, 8, 1);
    br.record(15_000, true, 10, 1);
    br.record(16_000, false, 12, 1); // 4 in window, 2 failed: 0.5 >= 0.5, opens at 16s
    expect(br.opened).toBe(1);
    expect(br.allowsSend(16_001, 14, 1)).toBe(false); // open: rejected
    expect(br.allowsSend(20_999, 14, 2)).toBe(false);
    br.record(20_000, true, 16, 1); // learned while open: not counted
    expect(br.allowsSend(21_000, 18, 1)).toBe(true); // opened + open_for: this attempt is the probe
    expect(br.allowsSend(21_001, 20, 1)).toBe(false); // half-open: every other is rejected
    br.record(21_100, true, 20, 9); // not the probe: ignored
    expect(br.allowsSend(21_200, 20, 1)).toBe(false);
    br.record(21_500, true, 18, 1); // the probe failed: open again from 21.5s
    expect(br.opened).toBe(2);
    expect(br.allowsSend(26_499, 22, 1)).toBe(false);
    expect(br.allowsSend(26_500, 22, 1)).toBe(true); // the next probe
    br.record(26_600, false, 22, 1); // it succeeded: closed, window emptied
    expect(br.allowsSend(26_700, 24, 1)).toBe(true);
    br.record(26_800, true, 24, 1);
    br.record(26_900, true, 26, 1);
    br.record(27_000, true, 28, 1); // 3 failures, but fewer than min_calls since closing
    expect(br.opened).toBe(2);
    br.record(27_100, true, 30, 1);
    expect(br.opened).toBe(3);
  });

  test('in an outage the breaker rejects attempts instead of sending them', () => {
    const blocks = coupledBlocks(`actions: 20000
load: {rate_per_s: 50}
network: {request_loss: 1}
client: {timeout: 200ms, retries: 2, breaker: {failure_rate: 0.5, window: 10s, min_calls: 20, open_for: 30s}}
agent: {replan_probability: 0}
`, '3', true);
    const actions = blocks.reduce((a, o) => a + o.actions, 0);
    // Closed, a call sends up to 3 attempts; open 30s of every ~30.2s, nearly every call is rejected at once.
    expect(sum(blocks, C.breaker_rejected) / actions).toBeGreaterThan(0.95);
    expect(sum(blocks, C.attempts) / actions).toBeLessThan(0.1);
  });
});

const MAPPING = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY }).mapping;
function binsOf(blocks: ReturnType<typeof coupledBlocks>): LatencyBins {
  const bins = new LatencyBins();
  for (const o of blocks) bins.addData(o.capacity!.queueWait);
  return bins;
}

describe('queue', () => {
  const overload = (extra: string) => `actions: 20000
load: {rate_per_s: 25}
service: {latency: {dist: exponential, mean: 100ms}, capacity: {workers: 2${extra}}}
network: {reply_loss: 0}
client: {timeout: 1h, retries: 0}
agent: {replan_probability: 0}
`;

  test('under overload LIFO serves the newest first: its median wait is far below FIFO\'s', () => {
    const fifo = binsOf(coupledBlocks(overload(''), '5', true)).quantile(0.5)!;
    const lifo = binsOf(coupledBlocks(overload(', order: lifo'), '5', true)).quantile(0.5)!;
    // 25/s against 20/s of service: FIFO's queue grows by about 5 a second, so its waits grow with the run (minutes); LIFO's median stays near 0.
    expect(fifo).toBeGreaterThan(60_000);
    expect(lifo).toBeLessThan(fifo / 100);
  });

  test('drop_expired never runs a request taken after its client\'s timeout', () => {
    const yaml = overload(', drop_expired: true').replace('timeout: 1h', 'timeout: 300ms');
    const blocks = coupledBlocks(yaml, '5', true);
    const q = binsOf(blocks);
    const data = q.toData();
    const longest = MAPPING.value(data.offset + data.counts.length - 1);
    expect(longest).toBeLessThan(300 * (1 + 2 * SKETCH_RELATIVE_ACCURACY));
    expect(sum(blocks, C.expired)).toBeGreaterThan(0);
    // Without it the same overload runs requests that waited far longer.
    const kept = binsOf(coupledBlocks(overload('').replace('timeout: 1h', 'timeout: 300ms'), '5', true)).quantile(0.99)!;
    expect(kept).toBeGreaterThan(10_000);
  });
});

describe('keys under queues', () => {
  test('verify_before_replan reads when the re-plan is due: an execution still queued at the call\'s end but committed by then stops the re-plan', () => {
    // 2 workers against 25 calls/s of 100 ms: a queue of up to 50 (at most 2.5 s of waiting) past
    // a 1 s timeout, so calls end unknown while their requests wait; each request that is not
    // shed runs within seconds, long before the re-plan is due 10 s later. Read at the call's end,
    // the action looks undone and its re-plan runs it again; read when due, never.
    const yaml = (verify: boolean) => `actions: 6000
load: {rate_per_s: 25}
service: {latency: {dist: exponential, mean: 100ms}, capacity: {workers: 2, queue: 50}}
network: {reply_loss: 0}
client: {timeout: 1s, retries: 0}
agent: {replan_probability: 1, replan_delay: {min: 10s, max: 10s}, verify_before_replan: ${verify}}
`;
    const without = coupledBlocks(yaml(false), '2', true);
    const withVerify = coupledBlocks(yaml(true), '2', true);
    expect(sum(without, C.duplicates_replan)).toBeGreaterThan(100);
    expect(sum(withVerify, C.duplicates_replan)).toBe(0);
    expect(sum(withVerify, C.unknown_outcomes)).toBeGreaterThan(100); // the calls did end unknown
  });
});
