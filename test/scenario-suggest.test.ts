/**
 * "Did you mean" for scenario files: a key written under the wrong section is sent to where it
 * lives (from model/shape.ts and the schema, not a hand list), and a duration whose unit is spelt
 * in another case or as a word gets its right spelling.
 */
import { describe, expect, it } from 'vitest';
import type { Param } from '../src/model/params.js';
import { SCENARIO_SHAPE } from '../src/model/shape.js';
import { durationSpelling } from '../src/scenario/duration.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario, type Override } from '../src/scenario/parse.js';
import { homesOf } from '../src/scenario/suggest-home.js';

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

describe('a key under the wrong section is sent to its home', () => {
  it('idempotency.preset: the top-level preset: (and client.preset, the other preset)', () => {
    const e = refusal('idempotency:\n  preset: stripe\n');
    expect(e.keyPath).toBe('idempotency.preset');
    expect(e.fix).toMatch(/^`preset` lives at the top level \(`preset:`\) or `client\.preset`\. Keys allowed under idempotency: scope, /);
  });

  it('service.timeout: client.timeout; and the same from the top level, an incident window and --set', () => {
    const home = '`timeout` belongs under client: write it as `client.timeout`. ';
    expect(refusal('service: {timeout: 2s}').fix).toBe(`${home}Keys allowed under service: latency, error_rate, crash_probability, crash_after_effect, fast_reply, capacity.`);
    expect(refusal('timeout: 2s').fix).toMatch(new RegExp(`^${home.replace(/[.()]/g, '\\$&')}Keys allowed at the top level`));
    expect(refusal('incidents: [{name: a, from: 1m, to: 2m, timeout: 2s}]').fix).toContain(home);
    const set = refusal('', [{ path: ['service', 'timeout'], text: '2s', option: '--set service.timeout=2s' }]);
    expect(set.origin).toEqual({ source: '--set service.timeout=2s' });
    expect(set.fix).toContain(home);
  });

  it('top-level keys besides the model\'s, a distribution\'s keys, and a key of an incident window only', () => {
    expect(refusal('idempotency: {seed: 4}').fix).toMatch(/^`seed` is a top-level key: write `seed:` at the top of the file, not under idempotency\./);
    expect(refusal('service: {median: 300ms}').fix).toMatch(/^`median` belongs under service\.latency: write it as `service\.latency\.median`\./);
    expect(refusal('network: {error_rate: 0.1}').fix).toMatch(/^`error_rate` belongs under service: write it as `service\.error_rate`\./);
    expect(refusal('service: {latency_multiplier: 4}').fix).toMatch(/^`latency_multiplier` belongs under incidents\[\]\.service: /);
  });

  it('a misspelling still gets its "did you mean", and a key of another distribution form is no question of place', () => {
    expect(refusal('client: {timeot: 2s}').fix).toMatch(/^Did you mean `timeout`\? Keys allowed under client:/);
    expect(refusal('client: {Timeout: 2s}').fix).toMatch(/^Did you mean `timeout`\?/);
    expect(refusal('service: {latency: {dist: uniform, min: 1s, max: 2s, median: 3s}}').fix).toBe('Keys allowed under service.latency: dist, min, max.');
    expect(refusal('idempotency: {zzz: 1}').fix).toMatch(/^Keys allowed under idempotency:/);
  });

  it('every key of every section of model/shape.ts, written at the top level, is named with its path', () => {
    const top = Object.keys(SCENARIO_SHAPE.params);
    const sectionKeys = (p: Param, path: string): string[] => (p.kind !== 'section' ? [] : Object.entries(p.params)
      .flatMap(([k, q]) => [`${path}.${k}`, ...sectionKeys(q, `${path}.${k}`)]));
    const paths = Object.entries(SCENARIO_SHAPE.params).flatMap(([k, p]) => sectionKeys(p, k));
    expect(paths).toContain('client.backoff.jitter');
    for (const path of paths) {
      const key = path.split('.').pop() as string;
      if (top.includes(key)) continue;
      expect(homesOf(key, ''), path).toContain(path);
      expect(refusal(`${key}: 1`).fix, path).toContain(`\`${path}\``);
    }
  });
});

describe('a duration with its unit spelt otherwise', () => {
  it('suggests the unit in lower case, or the unit a word means; nothing for what is no duration', () => {
    expect(['2S', '24H', '100MS', '1.5M', '7D', '5 mins', '2sec', '3 Hours', ' 2 S '].map(durationSpelling))
      .toEqual(['2s', '24h', '100ms', '1.5m', '7d', '5m', '2s', '3h', '2s']);
    expect(['2s', '5x', 'S', '2', '-2S', '1e3S', `2${'s'.repeat(20)}`].map(durationSpelling)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('in a file, an incident window and --set: "did you mean 2s"', () => {
    const e = refusal('client:\n  timeout: 2S\n');
    expect(e.message).toBe('s.yaml:2:12, key client.timeout: got "2S", expected a duration above 0 with its unit, at most 3650d (10 years), such as 250ms, 2s, 5m, 1h or 7d '
      + '(client timeout per attempt). Did you mean `2s`? A unit is one of ms, s, m, h and d, in lower case.');
    expect(refusal('incidents: [{name: a, from: 1M, to: 2m}]').fix).toMatch(/^Did you mean `1m`\?/);
    expect(refusal('idempotency: {lease: 90 Secs}').fix).toMatch(/^Did you mean `90s`\?/);
    expect(refusal('', [{ path: ['idempotency', 'retention'], text: '24H', option: '--set idempotency.retention=24H' }]).fix).toMatch(/^Did you mean `24h`\?/);
    expect(refusal('client: {timeout: 2y}').fix).toBe('Change the value to one of that form.');
  });
});
