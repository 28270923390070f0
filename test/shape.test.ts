/**
 * The scenario's shape is declared once (src/model/shape.ts, src/model/latency.ts); the defaults,
 * the schema, the resolver and which keys are durations come from it.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DISTRIBUTION, DISTRIBUTIONS, LATENCY_FORMS } from '../src/model/latency.js';
import { DEFAULT_SCENARIO, paramAt, SCENARIO_SHAPE } from '../src/model/shape.js';
import { resolve } from '../src/scenario/resolve.js';
import { isDurationKey, scenarioSchema } from '../src/scenario/schema.js';

describe('the scenario shape', () => {
  it("gives docs/model.md's defaults (the guide's lab)", () => {
    expect(DEFAULT_SCENARIO).toEqual({
      actions: 4000,
      load: { rate_per_s: 50, profile: [], duration: null },
      workload: { twin_probability: 0, twin_delay: { min: 1_000, max: 60_000 } },
      service: { latency: { dist: 'lognormal', median: 300, sigma: 0.6 }, error_rate: 0, crash_probability: 0, crash_after_effect: 0.5, fast_reply: 5, capacity: null },
      network: { request_loss: 0, reply_loss: 0.02 },
      client: { timeout: 1_000, retries: 3, deadline: null, backoff: { base: 100, multiplier: 2, max: 5_000, jitter: 'full' }, retry_budget: null, breaker: null, retry_throttle: null },
      agent: { replan_probability: 0.6, max_replans: 1, replan_delay: { min: 2_000, max: 60_000 }, arg_drift_probability: 0.5, verify_before_replan: false },
      runtime: { crash_probability: 0, resume_delay: { min: 120_000, max: 1_200_000 }, max_replays: 1 },
      trigger: null,
      idempotency: {
        scope: 'none', claim: 'atomic', fingerprint: 'business', retention: 3_600_000, lease: null,
        transactional: false, on_error: 'release', conflict_retry_after: null, record_bytes: 200, on_store_down: 'fail_closed',
      },
      incidents: [],
      alerts: [],
    });
  });

  it('resolves an empty file to the defaults, key for key and in the same order (JSON output prints it)', () => {
    expect(JSON.stringify(resolve({}))).toBe(JSON.stringify(DEFAULT_SCENARIO));
  });

  it('converts every duration leaf by its kind, at any depth', () => {
    const s = resolve({
      client: { timeout: '2s', deadline: 'none', backoff: { max: '1m' } },
      workload: { twin_delay: { min: '5s' } },
      service: { latency: { dist: 'mixture', components: [{ weight: 1, median: '1.5s' }, { weight: 2, dist: 'uniform', min: '1ms', max: '1h' }] } },
    });
    expect(s.client).toMatchObject({ timeout: 2000, deadline: null, backoff: { base: 100, max: 60_000 } });
    expect(s.workload.twin_delay).toEqual({ min: 5000, max: 60_000 });
    expect(s.service.latency).toEqual({ dist: 'mixture', components: [
      { dist: 'lognormal', median: 1500, sigma: 0.6, weight: 1 },
      { dist: 'uniform', min: 1, max: 3_600_000, weight: 2 },
    ] });
  });

  it('knows which key paths hold durations from the kinds, not from any text', () => {
    for (const path of ['service.latency.p99', 'service.latency.components[1].mean', 'client.timeout', 'client.deadline', 'workload.twin_delay.min', 'service.latency.median', 'service.latency.components[3].mean', 'idempotency.lease', 'trigger.ack_timeout', 'trigger.schedule[0]']) {
      expect(isDurationKey(path), path).toBe(true);
    }
    for (const path of ['client.retries', 'service.latency.sigma', 'service.latency.weight', 'service.latency.dist', 'expect.call_latency_ms.p95', 'client.constructor', 'nope', 'trigger.redeliveries', 'trigger.preset']) {
      expect(isDurationKey(path), path).toBe(false);
    }
    expect(paramAt('idempotency.scope')).toMatchObject({ kind: 'choice', default: 'none' });
  });

  it('puts one schema branch per latency form, with its keys and what it requires', () => {
    const latency = (scenarioSchema()['definitions'] as Record<string, { allOf: { then: { properties: object; required: string[] } }[] }>)['latency']!;
    expect(latency.allOf).toHaveLength(DISTRIBUTIONS.length);
    DISTRIBUTIONS.forEach((dist, i) => {
      const then = latency.allOf[i]!.then;
      expect(Object.keys(then.properties)).toEqual(['dist', ...Object.keys(LATENCY_FORMS[dist].keys), ...Object.keys(LATENCY_FORMS[dist].fit?.keys ?? {})]);
      expect(then.required).toEqual([...LATENCY_FORMS[dist].required]);
    });
    expect(DISTRIBUTIONS[0]).toBe(DEFAULT_DISTRIBUTION);
  });

  it('gives the schema one property per model key, the non-model keys first', () => {
    const props = Object.keys(scenarioSchema()['properties'] as object);
    expect(props.slice(-Object.keys(SCENARIO_SHAPE.params).length)).toEqual(Object.keys(SCENARIO_SHAPE.params));
  });
});
