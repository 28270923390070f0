/**
 * A feature the model lacks is not a typo: a key named after one (`client.hedge`) is refused
 * with a pointer to docs/model.md's "What idem-sim does not model", from a file and from --set,
 * rather than with a "did you mean" of a key it merely resembles.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/scenario/errors.js';
import { parseOverrides } from '../src/scenario/overrides.js';
import { parseScenario, type Override } from '../src/scenario/parse.js';
import { homesOf } from '../src/scenario/suggest-home.js';
import { UNMODELLED, UNMODELLED_DOC, unmodelledFeature } from '../src/scenario/unmodelled.js';
import { ROOT } from './helpers.js';

/** The InputError parsing throws (fails the test when none is thrown). */
function refusal(text: string, overrides: Override[] = []): InputError {
  try {
    parseScenario(text, 's.yaml', overrides);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError, but the scenario was accepted');
}

const HEDGE = 'idem-sim does not model hedged requests: see docs/model.md#what-idem-sim-does-not-model. '
  + 'The nearest it models: a `client.timeout` shorter than the latency, with `client.retries`: the abandoned attempt still runs on the server. ';

describe('a key of a feature the model lacks', () => {
  it('from a file: the file, line and key, that the model lacks it and where that is written, then the keys allowed', () => {
    const e = refusal('client:\n  timeout: 1s\n  hedge: 900ms\n');
    expect(e.message).toBe(`s.yaml:3:3, key client.hedge: unknown key "hedge". ${HEDGE}`
      + 'Keys allowed under client: preset, timeout, retries, deadline, backoff, retry_budget, breaker, retry_throttle.');
  });

  it('from --set: the option, and the same words', () => {
    const e = refusal('', parseOverrides({ set: ['client.hedge=900ms'] }));
    expect(e.origin).toEqual({ source: '--set client.hedge=900ms' });
    expect(e.message).toBe(`--set client.hedge=900ms, key client.hedge: unknown key "hedge". ${HEDGE}`
      + 'Keys allowed under client: preset, timeout, retries, deadline, backoff, retry_budget, breaker, retry_throttle.');
  });

  it('in any section and spelling (case, _ and - ignored), inside a distribution too', () => {
    expect(refusal('hedgeAfter: 1s').fix).toMatch(/^idem-sim does not model hedged requests: /);
    expect(refusal('client: {Hedge-After: 1s}').fix).toMatch(/^idem-sim does not model hedged requests: /);
    expect(refusal('service: {latency: {dist: constant, value: 1s, hedge: 2s}}').fix).toMatch(/^idem-sim does not model hedged requests: /);
    expect(refusal('rebalance: true').fix).toMatch(/^idem-sim does not model Kafka consumer-group rebalances: see docs\/model\.md#what-idem-sim-does-not-model\. The nearest it models: a worker crash/);
    expect(refusal('', parseOverrides({ set: ['idempotency.clock_skew=2s'] })).fix).toMatch(/^idem-sim does not model clock skew between client and store: /);
    expect(refusal('idempotency: {replication_lag: 200ms}').fix).toMatch(/^idem-sim does not model multi-region store replication lag: /);
  });

  it('named anywhere in the unknown path, not only by its first key: kafka.rebalance, store.replication_lag (store is no misplaced incidents[].store)', () => {
    const kafka = refusal('', parseOverrides({ set: ['kafka.rebalance=1'] }));
    expect(kafka.message).toMatch(/^--set kafka\.rebalance=1, key kafka: unknown key "kafka"\. idem-sim does not model Kafka consumer-group rebalances: /);
    const store = refusal('', parseOverrides({ set: ['store.replication_lag=1s'] }));
    expect(store.fix).toMatch(/^idem-sim does not model multi-region store replication lag: see docs\/model\.md#what-idem-sim-does-not-model\. /);
    expect(store.fix).not.toMatch(/belongs under/);
    // In a file, as deep as the keys below the unknown one go, lists included.
    expect(refusal('kafka:\n  topics:\n    - {name: orders, consumer_group: {rebalance: eager}}\n').fix).toMatch(/^idem-sim does not model Kafka consumer-group rebalances: /);
    expect(refusal('client: {race: {hedge_after: 50ms}}').fix).toMatch(/^idem-sim does not model hedged requests: /);
    // Keys below that name no feature leave the hints as they were.
    expect(refusal('store: {kind: redis}').fix).toMatch(/^`store` belongs under incidents\[\]/);
  });

  it('instead of a misleading "did you mean": idempotency.transactions names transactional as the nearest thing modelled', () => {
    const e = refusal('idempotency: {transactions: true}');
    expect(e.fix).not.toMatch(/Did you mean/);
    expect(e.fix).toMatch(/^idem-sim does not model exactly-once transactions: .* The nearest it models: `idempotency\.transactional: true`/);
  });

  it('a feature with nothing near says so by saying nothing more', () => {
    expect(refusal('idempotency: {fencing_token: true}').fix).toMatch(/^idem-sim does not model fencing tokens: see docs\/model\.md#what-idem-sim-does-not-model\. Keys allowed under idempotency:/);
  });

  it('leaves a misspelling and a key of another section as they were', () => {
    expect(refusal('client: {timeot: 2s}').fix).toMatch(/^Did you mean `timeout`\? /);
    expect(refusal('service: {timeout: 2s}').fix).toMatch(/^`timeout` belongs under client: /);
    expect(unmodelledFeature('timeout')).toBeUndefined();
  });
});

describe('the table of unmodelled features', () => {
  it('names no key of the model or the schema, anywhere in a scenario', () => {
    const keys = UNMODELLED.flatMap((u) => u.keys);
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter((k) => homesOf(k, '(nowhere)').length > 0)).toEqual([]);
  });

  it('names each key once, and not MODEL.md\'s future keys (trigger:, client.retry_throttle)', () => {
    const folded = UNMODELLED.flatMap((u) => u.keys).map((k) => k.toLowerCase().replace(/[_-]/g, ''));
    expect(new Set(folded).size).toBe(folded.length);
    expect(['trigger', 'retry_throttle', 'retryThrottle'].map(unmodelledFeature)).toEqual([undefined, undefined, undefined]);
  });

  it('is the list docs/model.md gives, in its order, each feature in bold', () => {
    expect(UNMODELLED_DOC).toBe('docs/model.md#what-idem-sim-does-not-model');
    const model = readFileSync(join(ROOT, 'docs', 'model.md'), 'utf8');
    const section = model.split(/^## What idem-sim does not model$/m)[1]?.split(/^## /m)[0] ?? '';
    const bold = [...section.matchAll(/^- \*\*([^*]+?)\.?\*\*/gm)].map((m) => (m[1] as string).toLowerCase());
    expect(bold).toEqual(UNMODELLED.map((u) => u.feature.toLowerCase()));
  });
});
