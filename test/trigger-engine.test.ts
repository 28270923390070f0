/**
 * Inbound delivery in the independent engine (docs/model.md, "Inbound delivery"): the contract's
 * reference points, in closed form. Deterministic cases (constant latency, no loss) are exact;
 * the lab-latency ones allow 4 standard errors of the run's own estimate (a correct model fails
 * such a check about once in 16,000 seeds; the seed is fixed).
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/exec/simulate.js';
import type { CounterName } from '../src/model/counters.js';
import type { Trigger } from '../src/model/trigger.js';
import type { Scenario } from '../src/model/types.js';
import { normalTail, parseRunnable } from './helpers.js';

const WEBHOOK: Trigger = {
  kind: 'webhook', ack_timeout: 1000, ack: 'after_step', redeliveries: 2, schedule: [0], ack_loss: 0, consumer_crash: 0,
  run_id: 'per_delivery', extend_up_to: null, dedupe: 'none',
};

/** Runs `yaml` with `trigger` on this thread; each counter's mean per action, with its standard error. */
function run(yaml: string, trigger: Partial<Trigger>, actions: number, seed = '1') {
  const scenario = { ...parseRunnable(yaml), actions, trigger: { ...WEBHOOK, ...trigger } } as Scenario;
  const { state, metrics } = simulate(scenario, seed);
  const mean = (name: CounterName) => state.counter(name).mean;
  const se = (name: CounterName) => state.counter(name).half / 1.96;
  return { mean, se, metrics, actions: state.actions };
}

/** The contract's webhook: constant 2 s, timeout 5 s, nothing retried, lost or crashed. */
const CONSTANT = `
service: {latency: {dist: constant, value: 2s}}
client: {timeout: 5s, retries: 0}
network: {reply_loss: 0}
agent: {replan_probability: 0}
idempotency: {scope: SCOPE}
`;

describe('the contract\'s constant-latency webhook (ack_timeout 1s, redeliveries 2, schedule [0s])', () => {
  it('scope none: 3 deliveries, 3 executions, dead-lettered', () => {
    const r = run(CONSTANT.replace('SCOPE', 'none'), {}, 2000);
    expect(r.mean('deliveries')).toBe(3);
    expect(r.mean('executions')).toBe(3);
    expect(r.mean('duplicates')).toBe(2);
    expect(r.mean('duplicates_redelivery')).toBe(2);
    expect(r.mean('dead_lettered')).toBe(1);
    expect(r.mean('redelivered')).toBe(1);
    expect(r.mean('lost')).toBe(0);
  });

  it('scope intent, run id from the message: delivery 1 gets a 409 and is acknowledged; 2 deliveries, no duplicate', () => {
    const r = run(CONSTANT.replace('SCOPE', 'intent'), { run_id: 'from_message' }, 2000);
    expect(r.mean('deliveries')).toBe(2);
    expect(r.mean('duplicates')).toBe(0);
    expect(r.mean('dead_lettered')).toBe(0);
    expect(r.mean('conflicts_409')).toBe(1);
    expect(r.mean('unknown_outcomes')).toBe(1);
  });

  it('scope intent, a run id per delivery: every delivery executes', () => {
    const r = run(CONSTANT.replace('SCOPE', 'intent'), { run_id: 'per_delivery' }, 2000);
    expect(r.mean('deliveries')).toBe(3);
    expect(r.mean('duplicates')).toBe(2);
  });

  it('dedupe by message: 2 deliveries, no duplicate', () => {
    const r = run(CONSTANT.replace('SCOPE', 'none'), { dedupe: 'by_message' }, 2000);
    expect(r.mean('deliveries')).toBe(2);
    expect(r.mean('duplicates')).toBe(0);
    expect(r.mean('dead_lettered')).toBe(0);
  });

  it('ack on receipt: one delivery; a consumer that always dies loses every action', () => {
    expect(run(CONSTANT.replace('SCOPE', 'none'), { ack: 'on_receipt' }, 2000).mean('deliveries')).toBe(1);
    const dies = run(CONSTANT.replace('SCOPE', 'none'), { ack: 'on_receipt', consumer_crash: 1 }, 2000);
    expect(dies.mean('lost')).toBe(1);
    expect(dies.mean('attempts')).toBe(0);
    expect(dies.metrics.action_latency_ms.p50).toBeNull();
  });

  it('a lease extension past the step ends redelivery', () => {
    const r = run(CONSTANT.replace('SCOPE', 'none'), { extend_up_to: 10_000 }, 2000);
    expect(r.mean('deliveries')).toBe(1);
    expect(r.mean('duplicates')).toBe(0);
  });
});

describe('lab latency (lognormal 300ms, 0.6), ack_timeout 1s, one redelivery, scope none', () => {
  const LAB = `
client: {timeout: 10s, retries: 0}
network: {reply_loss: 0}
agent: {replan_probability: 0}
`;
  const pSlow = normalTail(Math.log(1000 / 300) / 0.6); // P(L > 1s) = 0.0224

  it('duplicates per 1000 = 1000·P(L > 1s), all of source redelivery; dead-lettered 1000·P(L > 1s)²', () => {
    const r = run(LAB, { redeliveries: 1 }, 200_000);
    expect(Math.abs(1000 * r.mean('duplicates') - 1000 * pSlow)).toBeLessThan(4 * 1000 * r.se('duplicates'));
    expect(r.mean('duplicates_redelivery')).toBe(r.mean('duplicates'));
    expect(Math.abs(1000 * r.mean('dead_lettered') - 1000 * pSlow ** 2)).toBeLessThan(4 * 1000 * r.se('dead_lettered') + 0.05);
  });

  it('with extend_up_to 10s, none of either', () => {
    const r = run(LAB, { redeliveries: 1, extend_up_to: 10_000 }, 50_000);
    expect(r.mean('duplicates')).toBe(0);
    expect(r.mean('dead_lettered')).toBe(0);
  });
});
