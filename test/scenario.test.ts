/** Scenario files: durations, defaults, JSON, overrides and the published schema. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO } from '../src/model/types.js';
import { formatDuration, parseDuration } from '../src/scenario/duration.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario, type Override } from '../src/scenario/parse.js';

describe('durations', () => {
  it('reads units, and 0 alone', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('2s')).toBe(2000);
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseDuration('24h')).toBe(86_400_000);
    expect(parseDuration('7d')).toBe(604_800_000);
    expect(parseDuration('0')).toBe(0);
    expect(() => parseDuration('40')).toThrow(RangeError);
    expect(parseDuration(12.5)).toBe(12.5); // a number from the engine's side is ms
  });

  it('formats for people', () => {
    expect(formatDuration(90_000)).toBe('1.5m');
    expect(formatDuration(3_600_000)).toBe('1h');
    expect(formatDuration(250)).toBe('250ms');
  });
});

describe('parseScenario', () => {
  it('an empty file is the lab defaults', () => {
    expect(parseScenario('', 'x').scenario).toEqual(DEFAULT_SCENARIO);
  });

  it('a missing key takes its default, siblings included', () => {
    const { scenario } = parseScenario('client:\n  backoff: {jitter: none}\nidempotency: {retention: 5m}', 'x');
    expect(scenario.client.backoff).toEqual({ ...DEFAULT_SCENARIO.client.backoff, jitter: 'none' });
    expect(scenario.client.timeout).toBe(1000);
    expect(scenario.idempotency.retention).toBe(300_000);
    expect(scenario.idempotency.scope).toBe('none');
  });

  it('reads JSON too', () => {
    const { scenario } = parseScenario('{"idempotency": {"scope": "intent", "lease": "90s"}, "seed": 9}', 'x.json');
    expect(scenario.idempotency.lease).toBe(90_000);
  });

  it('lognormal parameters default separately; other distributions are taken whole', () => {
    expect(parseScenario('service: {latency: {median: 1200ms}}', 'x').scenario.service.latency)
      .toEqual({ dist: 'lognormal', median: 1200, sigma: 0.6 });
    expect(parseScenario('service: {latency: {dist: mixture, components: [{weight: 3, median: 100ms}, {weight: 1, dist: constant, value: 5s}]}}', 'x')
      .scenario.service.latency).toEqual({ dist: 'mixture', components: [
      { dist: 'lognormal', median: 100, sigma: 0.6, weight: 3 }, { dist: 'constant', value: 5000, weight: 1 }] });
  });

  it('none and null mean no deadline, lease or retry-after', () => {
    const { scenario } = parseScenario('client: {deadline: none}\nidempotency: {lease: null, conflict_retry_after: 1s}', 'x');
    expect(scenario.client.deadline).toBeNull();
    expect(scenario.idempotency.lease).toBeNull();
    expect(scenario.idempotency.conflict_retry_after).toBe(1000);
  });

  it('overrides apply over the file and are validated like it', () => {
    const { scenario } = parseScenario('client: {timeout: 1s}', 'x', [
      { path: ['client', 'timeout'], text: '600ms', option: '--set client.timeout=600ms' },
      { path: ['service', 'latency'], text: '{dist: constant, value: 5ms}', option: '--set service.latency=...' },
    ]);
    expect(scenario.client.timeout).toBe(600);
    expect(scenario.service.latency).toEqual({ dist: 'constant', value: 5 });
  });

  it('the seed and description come through', () => {
    expect(parseScenario('seed: 42\ndescription: hello', 'x')).toMatchObject({ seed: '42', description: 'hello' });
  });

  it.each([
    ['load: {rate_per_s: 0}', 'load.rate_per_s'],
    ['service: {latency: {median: 0}}', 'service.latency.median'],
    ['service: {latency: {dist: uniform, min: 2s, max: 1s}}', 'service.latency.max'],
    ['service: {latency: {dist: mixture, components: [{weight: 0, median: 1s}]}}', 'service.latency.components'],
    ['service: {latency: {dist: mixture, components: [{median: 1s}]}}', 'service.latency.components[0]'],
    ['agent: {replan_delay: {min: 5s, max: 1s}}', 'agent.replan_delay.max'],
    ['client: {timeout: 0}', 'client.timeout'],
    ['client: {backoff: {multiplier: 0.5}}', 'client.backoff.multiplier'],
    ['idempotency: {record_bytes: 0}', 'idempotency.record_bytes'],
    ['actions: 10\nactions: 20', 'actions'],
  ])('rejects %s at %s', (text, keyPath) => {
    let error: unknown;
    try { parseScenario(text, 'x.yaml'); } catch (e) { error = e; }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).keyPath).toBe(keyPath);
  });
});

describe('a duration needs its unit (docs/model.md v2)', () => {
  const refused = (text: string, overrides: Override[] = []): InputError => {
    try { parseScenario(text, 's.yaml', overrides); } catch (e) { if (e instanceof InputError) return e; throw e; }
    throw new Error('not refused');
  };

  it('refuses a bare number anywhere a duration goes, naming both readings', () => {
    const e = refused('client:\n  timeout: 2\n');
    expect(e.message).toBe('s.yaml:2:12, key client.timeout: 2 has no unit. A duration needs its unit (ms, s, m, h or d); only 0 may stand alone: write 2s or 2ms, whichever you mean.');
    expect(refused('idempotency: {retention: 24}').keyPath).toBe('idempotency.retention');
    // A key whose default is a minute or more (a retention of 1h) is offered the long units: 24 means 24h more often than 24ms.
    expect(refused('idempotency: {retention: 24}').message).toContain('write 24h, 24m or 24s, whichever you mean');
    expect(refused('runtime: {resume_delay: {min: 2, max: 20}}').message).toContain('write 2h, 2m or 2s');
    expect(refused('idempotency: {lease: "500"}').keyPath).toBe('idempotency.lease');
    expect(refused('workload: {twin_delay: {min: 1.5}}').message).toContain('write 1.5s or 1.5ms');
    expect(refused('service: {latency: {dist: mixture, components: [{weight: 1, dist: constant, value: 7}]}}').keyPath).toBe('service.latency.components[0].value');
    const set = refused('', [{ path: ['client', 'timeout'], text: '2', option: '--set client.timeout=2' }]);
    expect(set.origin).toEqual({ source: '--set client.timeout=2' });
  });

  it('takes 0 alone, and every unit', () => {
    const s = parseScenario('client: {timeout: 2s, deadline: 0, backoff: {base: 0}}\nservice: {fast_reply: 0}', 's.yaml').scenario;
    expect([s.client.timeout, s.client.deadline, s.client.backoff.base, s.service.fast_reply]).toEqual([2000, 0, 0, 0]);
  });

  it('refuses a unitless threshold on a latency metric', () => {
    expect(refused('expect: {call_latency_ms.p95: "< 3"}').message).toContain('key expect.call_latency_ms.p95: the threshold "< 3" has no unit, but call_latency_ms.p95 is a time. Write < 3s or < 3ms');
    expect(parseScenario('expect: {call_latency_ms.p95: "< 3s", duplicates_per_1000: "< 3"}', 's.yaml').expectations).toHaveLength(2);
  });
});
