/**
 * A provider's word for what `trigger` models (`consumer`, SQS's `visibility_timeout`, Pub/Sub's
 * `max_delivery_attempts`) is not a typo: its unknown key is pointed at the trigger key that models
 * it and at docs/triggers.md, from a file and from --set.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/scenario/errors.js';
import { parseOverrides } from '../src/scenario/overrides.js';
import { parseScenario, type Override } from '../src/scenario/parse.js';
import { PROVIDER_WORDS, providerWord, TRIGGER_DOC } from '../src/scenario/provider-words.js';
import { TRIGGER_PRESETS } from '../src/scenario/presets.js';
import { scenarioSchema } from '../src/scenario/schema.js';
import { homesOf } from '../src/scenario/suggest-home.js';
import { unmodelledFeature } from '../src/scenario/unmodelled.js';

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

const folded = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');

/** Every property name anywhere in a JSON schema (definitions, forms of a distribution, list items). */
function propertyNames(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => propertyNames(n, into));
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'properties' && typeof v === 'object' && v !== null) Object.keys(v).forEach((name) => into.add(name));
      propertyNames(v, into);
    }
  }
  return into;
}

const TRIGGER_INTRO = '`consumer` is modelled by `trigger` (the delivery that starts each step, which its sender makes again when no acknowledgement reaches it in time)';

describe('a provider\'s word for what trigger models', () => {
  it('consumer: {visibility_timeout: 30s}: the file, line and key, both words and their trigger keys, then docs/triggers.md', () => {
    const e = refusal('actions: 100\nconsumer:\n  visibility_timeout: 30s\n');
    expect(e.origin).toEqual({ source: 's.yaml', line: 2, col: 1 });
    expect(e.keyPath).toBe('consumer');
    expect(e.problem).toBe('unknown key "consumer"');
    expect(e.message).toMatch(/^s\.yaml:2:1, key consumer: unknown key "consumer"\. /);
    expect(e.fix.startsWith(`${TRIGGER_INTRO}; \`visibility_timeout\` is modelled by \`trigger.ack_timeout\` (SQS's visibility timeout): `
      + 'see docs/triggers.md. Keys allowed at the top level: ')).toBe(true);
    expect(e.fix).toMatch(/Keys allowed at the top level: .*\btrigger\b/);
  });

  it('in any case, _ and - ignored, at the top level, in a section and inside trigger itself', () => {
    expect(refusal('visibilityTimeout: 30s').fix).toMatch(/^`visibilityTimeout` is modelled by `trigger\.ack_timeout` \(SQS's visibility timeout\): see docs\/triggers\.md\. /);
    expect(refusal('client: {Ack-Deadline-Seconds: 10}').fix).toMatch(/^`Ack-Deadline-Seconds` is modelled by `trigger\.ack_timeout` \(Pub\/Sub's ack deadline\)/);
    expect(refusal('trigger: {ack_timeout: 30s, maxReceiveCount: 5}').fix).toMatch(/^`maxReceiveCount` is modelled by `trigger\.redeliveries` \(SQS's maxReceiveCount less 1\)/);
    expect(refusal('trigger: {preset: pubsub, max_delivery_attempts: 5}').fix).toMatch(/^`max_delivery_attempts` is modelled by `trigger\.redeliveries` \(the delivery attempts less 1/);
    expect(refusal('trigger: {preset: pubsub, max_lease_duration: 1h}').fix).toMatch(/^`max_lease_duration` is modelled by `trigger\.extend_up_to` /);
    expect(refusal('runtime: {dlq: true}').fix).toMatch(/^`dlq` is modelled by `trigger\.redeliveries` \(.*dead_lettered_per_1000/);
    expect(refusal('idempotency: {message_id: true}').fix).toMatch(/^`message_id` is modelled by `trigger\.dedupe` \(`by_message`.*`trigger\.run_id: from_message`/);
  });

  it('from --set, and below an unknown key as unmodelled features are (sqs: names its preset)', () => {
    const e = refusal('', parseOverrides({ set: ['webhook.response_timeout=3s'] }));
    expect(e.origin).toEqual({ source: '--set webhook.response_timeout=3s' });
    expect(e.fix).toMatch(/^`webhook` is modelled by `trigger` \(.*\); `response_timeout` is modelled by `trigger\.ack_timeout` \(a webhook sender's response timeout\): see docs\/triggers\.md\. /);
    expect(refusal('sqs:\n  queues:\n    - {max_receive_count: 10}\n').fix)
      .toMatch(/^`sqs` is modelled by `trigger\.preset` \(`trigger: \{preset: sqs\}`, the sender's documented values\); `max_receive_count` is modelled by `trigger\.redeliveries` /);
  });

  it('inside trigger, a word that is the section itself is left to the other hints', () => {
    expect(refusal('trigger: {ack_timeout: 1s, consumer: 1}').fix).toMatch(/^Did you mean `consumer_crash`\? Keys allowed under trigger: /);
    expect(refusal('trigger: {ack_timeout: 1s, webhook: 1}').fix).toMatch(/^Keys allowed under trigger: /);
    expect(refusal('trigger: {ack_timeout: 1s, consumer_crsh: 0.1}').fix).toMatch(/^Did you mean `consumer_crash`\? /);
  });

  it('leaves a key of the model in the wrong place, an unmodelled feature and a misspelling as they were', () => {
    expect(refusal('client: {redeliveries: 3}').fix).toMatch(/^`redeliveries` belongs under trigger: write it as `trigger\.redeliveries`\. /);
    expect(refusal('queue: 10').fix).toMatch(/^`queue` belongs under service\.capacity/);
    expect(refusal('consumer_group: {rebalance: eager}').fix).toMatch(/^idem-sim does not model Kafka consumer-group rebalances: /);
    expect(refusal('client: {timeot: 2s}').fix).toMatch(/^Did you mean `timeout`\? /);
  });
});

describe('the table of provider words', () => {
  const words = [...PROVIDER_WORDS.flatMap((w) => w.keys), ...Object.keys(TRIGGER_PRESETS)];

  it('names no key of the model or the schema, anywhere in a scenario, in any spelling', () => {
    expect(words.length).toBeGreaterThan(40);
    const keys = new Set([...propertyNames(scenarioSchema())].map(folded));
    expect(keys.has('ackTimeout'.toLowerCase())).toBe(true);
    expect(words.filter((k) => keys.has(folded(k)) || homesOf(k, '(nowhere)').length > 0)).toEqual([]);
  });

  it('names each word once, none of them an unmodelled feature, each pointing at a trigger key path the schema has', () => {
    const f = words.map(folded);
    expect(new Set(f).size).toBe(f.length);
    expect(words.filter((k) => unmodelledFeature(k) !== undefined)).toEqual([]);
    const paths = new Set(PROVIDER_WORDS.map((w) => w.path));
    expect([...paths].filter((p) => p !== 'trigger' && !homesOf(p.split('.').pop() as string, '(nowhere)').includes(p))).toEqual([]);
    expect(providerWord('SQS')?.path).toBe('trigger.preset');
    expect(TRIGGER_DOC).toBe('docs/triggers.md');
  });
});
