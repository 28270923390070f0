/**
 * The keys of docs/model.md's "Capacity" as a scenario writes them: their resolved shapes and
 * defaults, the preset, the refusals (file, line, key path and a fix), the warnings on settings
 * that do nothing, `--set` inside an optional section, and the outputs of a scenario without them.
 */
import { describe, expect, it } from 'vitest';
import { echoed } from '../src/model/clock.js';
import { inForceAt, windowMatters } from '../src/model/incidents.js';
import { DEFAULT_SCENARIO, paramAt } from '../src/model/shape.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario, type Override } from '../src/scenario/parse.js';
import { isDurationKey } from '../src/scenario/schema.js';
import { PartChecker } from '../src/shards/part-check.js';

const MINUTE = 60_000;
const parse = (text: string, overrides: Override[] = []) => parseScenario(text, 's.yaml', overrides);
const set = (path: string, text: string): Override => ({ path: path.split('.'), text, option: `--set ${path}=${text}` });

/** The InputError parsing throws (fails the test when none is thrown). */
function refusal(text: string, overrides: Override[] = []): InputError {
  try {
    parse(text, overrides);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError, but the scenario was accepted');
}

/** The key paths of a scenario's warnings. */
const warned = (text: string): string[] => parse(text).warnings.map((w) => w.keyPath);

describe('the capacity keys resolve', () => {
  it('are none by default, and an incident window changes no worker count', () => {
    expect(DEFAULT_SCENARIO.service.capacity).toBeNull();
    expect(DEFAULT_SCENARIO.client.retry_budget).toBeNull();
    expect(DEFAULT_SCENARIO.client.breaker).toBeNull();
    const s = parse('load: {duration: 1h}\nincidents: [{name: a, from: 1m, to: 2m, service: {latency_multiplier: 2}}]\n').scenario;
    expect(s.incidents[0]?.service.capacity).toEqual({ workers: null });
  });

  it('written none or null, each is null', () => {
    const s = parse('service: {capacity: none}\nclient: {retry_budget: null, breaker: none}\n').scenario;
    expect([s.service.capacity, s.client.retry_budget, s.client.breaker]).toEqual([null, null, null]);
  });

  it('fill a partial mapping from their defaults (times in ms)', () => {
    const s = parse('service: {capacity: {workers: 8}}\nclient:\n  retry_budget: {tokens: 50}\n  breaker: {window: 2s}\n').scenario;
    expect(s.service.capacity).toEqual({ workers: 8, queue: null, order: 'fifo', drop_expired: false, retry_after: null });
    expect(s.client.retry_budget).toEqual({ tokens: 50, retry_cost: 5, timeout_cost: 10, success_refund: 1 });
    expect(s.client.breaker).toEqual({ failure_rate: 0.5, window: 2_000, min_calls: 20, open_for: 30_000 });
  });

  it('take every key written, the queue as a count or unbounded (null)', () => {
    const s = parse('service: {capacity: {workers: 3, queue: 0, order: lifo, drop_expired: true, retry_after: 1500ms}}\n').scenario;
    expect(s.service.capacity).toEqual({ workers: 3, queue: 0, order: 'lifo', drop_expired: true, retry_after: 1_500 });
    expect(parse('service: {capacity: {workers: 3, queue: unbounded}}').scenario.service.capacity?.queue).toBeNull();
    expect(parse('service: {capacity: {workers: 3, queue: 1000000000}}').scenario.service.capacity?.queue).toBe(1e9);
  });

  it('aws-standard is the AWS SDKs\' standard retry mode: 500 tokens, 5 a retry, 10 after a timeout, 1 back', () => {
    expect(parse('client: {retry_budget: aws-standard}').scenario.client.retry_budget).toEqual({ tokens: 500, retry_cost: 5, timeout_cost: 10, success_refund: 1 });
  });

  it('an incident window may set the workers, 0 included (a pause), read by inForceAt and windowMatters', () => {
    const s = parse(`load: {duration: 1h}
service: {capacity: {workers: 40}}
incidents:
  - {name: pause, from: 10m, to: 11m, service: {capacity: {workers: 0}}}
  - {name: drop, from: 20m, to: 30m, service: {capacity: {workers: 10}}}
`).scenario;
    expect(s.incidents.map((w) => w.service.capacity.workers)).toEqual([0, 10]);
    expect(inForceAt(s.incidents, 10 * MINUTE).workers).toBe(0);
    expect(inForceAt(s.incidents, 25 * MINUTE).workers).toBe(10);
    expect(inForceAt(s.incidents, 15 * MINUTE).workers).toBeNull();
    expect([windowMatters(s, 0), windowMatters(s, 1)]).toEqual([true, true]);
  });

  it('key paths reach the parameters, and window, open_for and retry_after are durations (a bare number refused)', () => {
    expect(paramAt('service.capacity.workers')).toMatchObject({ kind: 'count', min: 1, max: 1e6 });
    expect(paramAt('client.breaker.window')).toMatchObject({ kind: 'duration', default: 10_000 });
    expect(paramAt('incidents[2].service.capacity.workers')).toMatchObject({ kind: 'override', of: { kind: 'count', min: 0 } });
    for (const path of ['client.breaker.window', 'client.breaker.open_for', 'service.capacity.retry_after']) expect(isDurationKey(path), path).toBe(true);
    for (const path of ['service.capacity.workers', 'service.capacity.queue', 'client.retry_budget', 'client.breaker.min_calls']) expect(isDurationKey(path), path).toBe(false);
    expect(refusal('client: {breaker: {open_for: 30}}').problem).toBe('30 has no unit');
  });
});

describe('the capacity keys refused, with the line, the key path and a fix', () => {
  it('base workers 0: at least 1, and where a pause goes', () => {
    const e = refusal('service:\n  capacity:\n    workers: 0\n');
    expect(e.keyPath).toBe('service.capacity.workers');
    expect(e.origin).toMatchObject({ source: 's.yaml', line: 3 });
    expect(e.problem).toMatch(/^got 0, expected a whole number >= 1 /);
    expect(e.fix).toMatch(/at least 1 worker.*workers: 0 in an incident window/);
  });

  it('a capacity without workers, or with a misspelt key', () => {
    expect(refusal('service: {capacity: {queue: 10}}')).toMatchObject({ keyPath: 'service.capacity', problem: 'missing key "workers"' });
    expect(refusal('service: {capacity: {workers: 2, qeue: 10}}').fix).toMatch(/^Did you mean `queue`\?/);
    expect(refusal('service: {workers: 2}').fix).toMatch(/^`workers` belongs under service\.capacity: write it as `service\.capacity\.workers`\./);
  });

  it('queue: -1 (and a fraction, and past 10^9)', () => {
    for (const q of ['-1', '1.5', '1000000001']) {
      const e = refusal(`service:\n  capacity:\n    workers: 4\n    queue: ${q}\n`);
      expect(e.keyPath, q).toBe('service.capacity.queue');
      expect(e.origin, q).toMatchObject({ line: 4 });
      expect(e.fix, q).toMatch(/from 0 \(no waiting room.*\) to 10\^9, or unbounded/);
    }
  });

  it('a misspelt preset gets the list of presets', () => {
    const e = refusal('client:\n  retry_budget: aws-standrd\n');
    expect(e.keyPath).toBe('client.retry_budget');
    expect(e.origin).toMatchObject({ line: 2 });
    expect(e.fix).toBe('Did you mean `aws-standard`? Write none, aws-standard, aws-standard-2026 (a preset), or a mapping {tokens, retry_cost, timeout_cost, success_refund}.');
    expect(refusal('client: {breaker: aws-standard}').fix).toBe('Write none, or a mapping {failure_rate, window, min_calls, open_for}.');
  });

  it('budget tokens 0, a negative cost', () => {
    expect(refusal('client: {retry_budget: {tokens: 0}}').keyPath).toBe('client.retry_budget.tokens');
    expect(refusal('client: {retry_budget: {retry_cost: -1}}').keyPath).toBe('client.retry_budget.retry_cost');
  });

  it('breaker failure_rate 0 and window 0', () => {
    const rate = refusal('client:\n  breaker:\n    failure_rate: 0\n');
    expect(rate).toMatchObject({ keyPath: 'client.breaker.failure_rate', origin: { line: 3 } });
    expect(rate.fix).toBe('Give a share of failures above 0 and at most 1, such as 0.5.');
    expect(refusal('client: {breaker: {window: 0}}')).toMatchObject({ keyPath: 'client.breaker.window', fix: 'Give a window above 0, such as 10s.' });
  });

  it('a window setting workers in a scenario without service.capacity', () => {
    const e = refusal('load: {duration: 1h}\nincidents:\n  - name: a\n    from: 1m\n    to: 2m\n    service: {capacity: {workers: 2}}\n');
    expect(e.keyPath).toBe('incidents[0].service.capacity.workers');
    expect(e.origin).toMatchObject({ line: 6 });
    expect(e.problem).toMatch(/service\.capacity is none/);
    expect(e.fix).toMatch(/^Give the service its workers/);
  });

  it('a window\'s workers past 10^6', () => {
    expect(refusal('load: {duration: 1h}\nservice: {capacity: {workers: 4}}\nincidents: [{name: a, from: 1m, to: 2m, service: {capacity: {workers: 1000001}}}]').keyPath)
      .toBe('incidents[0].service.capacity.workers');
  });
});

describe('capacity settings that have no effect are warned of', () => {
  it('a budget with client.retries 0', () => {
    expect(warned('client: {retries: 0, retry_budget: aws-standard}')).toContain('client.retry_budget');
    expect(warned('client: {retry_budget: aws-standard}')).not.toContain('client.retry_budget');
  });

  it('retry_after with an unbounded queue: nothing is ever shed', () => {
    expect(warned('service: {capacity: {workers: 40, retry_after: 1s}}')).toEqual(['service.capacity.retry_after']);
    expect(warned('service: {capacity: {workers: 40, queue: 10, retry_after: 1s}}')).toEqual([]);
  });

  it('drop_expired (and lifo) where no request can wait: queue 0', () => {
    expect(warned('service: {capacity: {workers: 40, queue: 0, drop_expired: true, order: lifo}}')).toEqual(['service.capacity.drop_expired', 'service.capacity.order']);
    expect(warned('service: {capacity: {workers: 40, queue: 1, drop_expired: true, order: lifo}}')).toEqual([]);
  });

  it('a breaker whose min_calls its window cannot reach at the scenario\'s rate', () => {
    // At most 0.1/s × 4 attempts × 2 calls (a re-plan) in 10s: 8 < 20.
    const w = parse('load: {rate_per_s: 0.1}\nclient: {breaker: {}}').warnings;
    expect(w.map((x) => x.keyPath)).toEqual(['client.breaker.min_calls']);
    expect(w[0]?.problem).toMatch(/about 8\.0 attempts are sent in a window of 10s on average, fewer than min_calls \(20\)/);
    // Within reach: 0.1/s × 8 in 30s is 24 >= 20; and the profile's highest rate counts.
    expect(warned('load: {rate_per_s: 0.1}\nclient: {breaker: {window: 30s}}')).toEqual([]);
    expect(warned('load: {rate_per_s: 0.1, duration: 1h, profile: [{at: 30m, rate_per_s: 5}]}\nclient: {breaker: {}}')).toEqual([]);
  });

  it('an incident\'s workers equal to the base count, unless another window overlapping it sets them', () => {
    const base = 'load: {duration: 1h}\nservice: {capacity: {workers: 40}}\nincidents:\n';
    expect(warned(`${base}  - {name: a, from: 1m, to: 2m, service: {latency_multiplier: 2, capacity: {workers: 40}}}\n`)).toEqual(['incidents[0].service.capacity.workers']);
    expect(warned(`${base}  - {name: a, from: 1m, to: 9m, service: {capacity: {workers: 1}}}\n  - {name: b, from: 3m, to: 4m, service: {capacity: {workers: 40}}}\n`)).toEqual([]);
  });
});

describe('--set inside an optional section', () => {
  it('on a scenario without the section creates it with its defaults and the key set', () => {
    expect(parse('', [set('service.capacity.workers', '8')]).scenario.service.capacity).toEqual({ workers: 8, queue: null, order: 'fifo', drop_expired: false, retry_after: null });
    expect(parse('service: {capacity: none}', [set('service.capacity.workers', '8')]).scenario.service.capacity?.workers).toBe(8);
    expect(parse('client: {breaker: null}', [set('client.breaker.min_calls', '5')]).scenario.client.breaker?.min_calls).toBe(5);
  });

  it('keeps the keys the file wrote, and opens a preset into its values', () => {
    expect(parse('service: {capacity: {workers: 3, queue: 5}}', [set('service.capacity.workers', '8')]).scenario.service.capacity).toMatchObject({ workers: 8, queue: 5 });
    expect(parse('client: {retry_budget: aws-standard}', [set('client.retry_budget.tokens', '100')]).scenario.client.retry_budget)
      .toEqual({ tokens: 100, retry_cost: 5, timeout_cost: 10, success_refund: 1 });
  });

  it('blames the --set for a value it gave', () => {
    expect(refusal('', [set('service.capacity.workers', '0')]).origin).toEqual({ source: '--set service.capacity.workers=0' });
  });
});

describe('outputs', () => {
  it('a scenario without the keys echoes none of them (as before they existed)', () => {
    const plain = echoed(parse('load: {duration: 1h}\nincidents: [{name: a, from: 1m, to: 2m, service: {latency_multiplier: 2}}]').scenario);
    expect(Object.keys(plain.service ?? {})).not.toContain('capacity');
    expect(Object.keys(plain.client ?? {})).not.toContain('retry_budget');
    expect(Object.keys(plain.client ?? {})).not.toContain('breaker');
    expect(JSON.stringify(plain.incidents)).not.toContain('capacity');
  });

  it('with one of them, all are echoed, an unset one and an unbounded queue as null (as every none)', () => {
    const s = echoed(parse('load: {duration: 1h}\nclient: {breaker: {}}\nincidents: [{name: a, from: 1m, to: 2m, service: {latency_multiplier: 2}}]').scenario);
    expect(s.service?.capacity).toBeNull();
    expect(s.client?.retry_budget).toBeNull();
    expect(s.client?.breaker).toEqual({ failure_rate: 0.5, window: 10_000, min_calls: 20, open_for: 30_000 });
    expect(s.incidents?.[0]?.service.capacity).toEqual({ workers: null });
    expect(echoed(parse('service: {capacity: {workers: 2}}').scenario).service?.capacity?.queue).toBeNull();
  });

  it('a part holding a scenario with the keys passes the part check; a value out of range does not', () => {
    const s = parse('load: {duration: 1h}\nservice: {capacity: {workers: 4, queue: 10}}\nclient: {retry_budget: aws-standard, breaker: {}}\nincidents: [{name: a, from: 1m, to: 2m, service: {capacity: {workers: 0}}}]').scenario;
    const copy = JSON.parse(JSON.stringify(s)) as typeof s;
    expect(new PartChecker('p.json').scenario(copy, 'runs[0].scenario')).toEqual(s);
    const none = JSON.parse(JSON.stringify(parse('').scenario)) as typeof s;
    expect(new PartChecker('p.json').scenario(none, 'runs[0].scenario')).toEqual(parse('').scenario);
    const bad = { ...copy, service: { ...copy.service, capacity: { ...copy.service.capacity, queue: -1 } } };
    expect(() => new PartChecker('p.json').scenario(bad, 'runs[0].scenario')).toThrow(/runs\[0\]\.scenario\.service\.capacity\.queue/);
    const orphan = { ...copy, service: { ...copy.service, capacity: null } };
    expect(() => new PartChecker('p.json').scenario(orphan, 'runs[0].scenario')).toThrow(/service\.capacity is none/);
  });
});
