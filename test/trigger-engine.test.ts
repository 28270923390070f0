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
import { SERIES_NAMES } from '../src/model/series.js';
import { C } from '../src/model/counters.js';
import { ChunkSimulator } from '../src/engine/engine.js';
import { gridStepFor } from '../src/engine/grid.js';
import { planChunks } from '../src/engine/plan.js';
import { traceChunk } from '../src/engine/trace.js';
import { traceCoupled } from '../src/engine/trace-coupled.js';
import { chunkRng } from '../src/random/rng.js';
import { sampleRows } from '../src/report/timeline-rows.js';
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

describe('closed forms beyond the contract\'s points (constant 2s latency, ack_timeout 1s, scope none)', () => {
  it('ack on receipt with lost acknowledgements: deliveries 1 + q + q² for two redeliveries, each one run', () => {
    const q = 0.5;
    const r = run(CONSTANT.replace('SCOPE', 'none'), { ack: 'on_receipt', ack_loss: q }, 100_000);
    const expected = 1 + q + q * q; // delivery k + 1 happens when k acknowledgements in a row were lost
    expect(Math.abs(r.mean('deliveries') - expected)).toBeLessThan(4 * r.se('deliveries'));
    expect(r.mean('executions')).toBeCloseTo(r.mean('deliveries'), 12);
    expect(Math.abs(r.mean('dead_lettered') - q ** 3)).toBeLessThan(4 * r.se('dead_lettered'));
  });

  it('ack on receipt with a consumer that dies with chance p: 1000·p lost per 1000, never redelivered', () => {
    const p = 0.1;
    const r = run(CONSTANT.replace('SCOPE', 'none'), { ack: 'on_receipt', consumer_crash: p }, 100_000);
    expect(Math.abs(r.mean('lost') - p)).toBeLessThan(4 * r.se('lost'));
    expect(r.mean('deliveries')).toBe(1);
    expect(r.mean('duplicates')).toBe(0);
  });

  it('a runtime crash at the step end leaves its delivery unacknowledged: the replay and the redelivery both execute', () => {
    const c = 0.3;
    const yaml = `${CONSTANT.replace('SCOPE', 'none').replace('2s', '200ms')}runtime: {crash_probability: ${c}, max_replays: 1}\n`;
    const r = run(yaml, { redeliveries: 1 }, 100_000);
    // Run 0 crashes with chance c: its replay executes again and delivery 1 runs at 1s, crashing in turn with chance c.
    const tol = (name: CounterName) => 4 * r.se(name);
    expect(Math.abs(r.mean('duplicates_replay') - c)).toBeLessThan(tol('duplicates_replay'));
    expect(Math.abs(r.mean('duplicates_redelivery') - c * (1 + c))).toBeLessThan(tol('duplicates_redelivery'));
    expect(Math.abs(r.mean('duplicates') - (2 * c + c * c))).toBeLessThan(tol('duplicates'));
    expect(Math.abs(r.mean('dead_lettered') - c * c)).toBeLessThan(tol('dead_lettered'));
  });

  it('a twin is a message of its own, with its own deliveries', () => {
    const r = run(`${CONSTANT.replace('SCOPE', 'none')}workload: {twin_probability: 1}\n`, {}, 1000);
    expect(r.actions).toBe(2000);
    expect(r.mean('deliveries')).toBe(3);
    expect(r.mean('duplicates')).toBe(2);
  });

  it('the schedule spaces the deliveries: with [0s, 1m] the third comes a minute after the second\'s deadline', () => {
    const scenario = { ...parseRunnable(CONSTANT.replace('SCOPE', 'none')), actions: 1, trigger: { ...WEBHOOK, schedule: [0, 60_000] } } as Scenario;
    const series = simulate(scenario, '1', 1000).series!;
    const width = series.counts.length / series.buckets;
    /** The starts of the 1 s buckets where `name` counted (whole seconds after the arrival, so differences are exact). */
    const at = (name: 'deliveries' | 'dead_lettered') => {
      const column = SERIES_NAMES.indexOf(name);
      return [...Array(series.buckets).keys()].filter((b) => series.counts[b * width + column]! > 0).map((b) => b * series.step);
    };
    // Delivery 0 at the arrival; its deadline 1s later, delivery 1 then; its deadline at 2s, delivery 2 at 2s + 60s; dead-lettered at 63s.
    const times = at('deliveries');
    expect(times.length).toBe(3);
    expect(times[1]! - times[0]!).toBe(1000);
    expect(times[2]! - times[1]!).toBe(61_000);
    expect(at('dead_lettered')[0]! - times[2]!).toBe(1000);
  });
});

describe('the traced chunk of a triggered scenario (the action timeline)', () => {
  it('traces each delivery\'s run as a row of its own, and marks as duplicates what the run counts', () => {
    const yaml = `actions: 2000\n${CONSTANT.replace('SCOPE', 'none').replace('{dist: constant, value: 2s}', '{dist: lognormal, median: 800ms, sigma: 0.6}')}workload: {twin_probability: 0.1}\n`;
    const scenario = { ...parseRunnable(yaml), trigger: { ...WEBHOOK, redeliveries: 2 } } as Scenario;
    const step = gridStepFor(scenario);
    const plan = planChunks('1', scenario.actions, scenario.load.rate_per_s)[0]!;
    const plain = new ChunkSimulator(scenario, step).run(chunkRng('1', 0), plan);
    const { output, actions } = traceChunk(scenario, step, chunkRng('1', 0), plan);
    expect(output.sum).toEqual(plain.sum); // tracing changes no number
    const marked = actions.reduce((n, a) => n + a.executions.filter((e) => e.duplicate).length, 0);
    expect(marked).toBe(plain.sum[C.duplicates]);
    expect(marked).toBeGreaterThan(0);
    const redelivered = actions.filter((a) => (a.delivery ?? 0) > 0);
    expect(redelivered.length).toBe(plain.sum[C.deliveries]! - plain.actions); // every delivery started a run
    // A redelivery's run executes a duplicate whenever the first delivery's run executed (scope none: always).
    expect(redelivered.every((a) => a.executions.every((e) => e.duplicate))).toBe(true);
    const rows = sampleRows(actions, plan.offset, scenario.client.timeout).rows;
    const row = rows.find((r) => (r.action.delivery ?? 0) > 0)!;
    expect(row.label).toMatch(/^#\d+( twin)? delivery [23]$/);
    expect(row.story).toMatch(/^Delivery [23] of (the twin of )?action #\d+ \(redelivered/);
  });
});

describe('the coupled engine with a trigger (every run competes for the workers)', () => {
  const COUPLED = CONSTANT.replace('SCOPE', 'none').replace('value: 2s}}', 'value: 2s}, capacity: {workers: 10000}}');

  it('with workers far above the load, gives the chunk engine\'s figures: the contract\'s points', () => {
    const none = run(COUPLED, {}, 2000);
    expect(none.metrics.shed_per_1000).toBeDefined(); // a coupled run
    expect(none.mean('deliveries')).toBe(3);
    expect(none.mean('duplicates')).toBe(2);
    expect(none.mean('dead_lettered')).toBe(1);
    const intent = run(COUPLED.replace('scope: none', 'scope: intent'), { run_id: 'from_message' }, 2000);
    expect(intent.mean('deliveries')).toBe(2);
    expect(intent.mean('duplicates')).toBe(0);
    expect(intent.mean('conflicts_409')).toBe(1);
    const dedupe = run(COUPLED, { dedupe: 'by_message' }, 2000);
    expect(dedupe.mean('deliveries')).toBe(2);
    expect(dedupe.mean('duplicates')).toBe(0);
  });

  it('lab latency with one redelivery: the chunk engine\'s duplicates and dead letters within their intervals', () => {
    const lab = 'client: {timeout: 10s, retries: 0}\nnetwork: {reply_loss: 0}\nagent: {replan_probability: 0}\n';
    const chunk = run(lab, { redeliveries: 1 }, 100_000);
    const coupled = run(`${lab}service: {capacity: {workers: 10000}}\n`, { redeliveries: 1 }, 100_000, '2');
    for (const name of ['duplicates', 'dead_lettered', 'deliveries'] as const) {
      // Two independent estimates: their difference within 4 standard errors of a difference.
      expect(Math.abs(chunk.mean(name) - coupled.mean(name))).toBeLessThan(4 * Math.hypot(chunk.se(name), coupled.se(name)));
    }
  });

  it('redeliveries feed a slow service: runs still going when their message comes again add to the load', () => {
    const slow = `service: {latency: {dist: constant, value: 3s}, capacity: {workers: 200}}\nclient: {timeout: 10s, retries: 0}\nnetwork: {reply_loss: 0}\nagent: {replan_probability: 0}\nload: {rate_per_s: 50}\n`;
    const r = run(slow, { ack_timeout: 1000, redeliveries: 2 }, 20_000);
    // Every step outlasts the 1 s deadline: each action is delivered 3 times and its 3 runs each hold a worker 3 s.
    expect(r.mean('deliveries')).toBe(3);
    expect(r.metrics.utilisation!).toBeGreaterThan(0.6); // 50/s × 3 runs × 3 s = 450 worker-seconds a second on 200 workers: saturated
  });
});

describe('the traced chunk of a coupled triggered scenario', () => {
  it('traces each redelivered run, from its own slot, as its action\'s row, and marks what the run counts', () => {
    const yaml = `actions: 3000\n${CONSTANT.replace('SCOPE', 'none').replace('{dist: constant, value: 2s}', '{dist: lognormal, median: 800ms, sigma: 0.6}, capacity: {workers: 100}')}`;
    const scenario = { ...parseRunnable(yaml), trigger: { ...WEBHOOK, redeliveries: 2 } } as Scenario;
    const plan = planChunks('1', scenario.actions, scenario.load.rate_per_s)[0]!;
    const { actions, outputs } = traceCoupled(scenario, gridStepFor(scenario), '1', plan);
    const counted = outputs.reduce((n, o) => n + (o.sum[C.duplicates] as number), 0);
    const marked = actions.reduce((n, a) => n + a.executions.filter((e) => e.duplicate).length, 0);
    expect(marked).toBe(counted); // the chunk is the whole run here (3000 actions < one chunk)
    const redelivered = actions.filter((a) => (a.delivery ?? 0) > 0);
    expect(redelivered.length).toBe(outputs.reduce((n, o) => n + (o.sum[C.deliveries] as number), 0) - 3000);
    expect(actions.every((a) => a.delivery !== undefined)).toBe(true);
  });
});
