/**
 * The engine's parameters (engine/compile.ts) are made by a constructor that assigns each field, and
 * TypeScript does not check that a class merged with the `Params` interface assigns them all: a field
 * left out would be undefined, and a comparison with it silently false. So every field is checked
 * an own property, defined, here, under scenarios that set the optional parts (a trigger, capacity, a
 * window). The list is checked against the interface both ways when the tests are type-checked.
 */
import { describe, expect, it } from 'vitest';
import { compile, type Params } from '../src/engine/compile.js';
import { jittered } from '../src/model/policy.js';
import { parseRunnable } from './helpers.js';

const KEYS = [
  'twinP', 'twinMin', 'twinMax', 'requestLoss', 'replyLoss', 'latency', 'cut', 'reach', 'lastDecision',
  'errorRate', 'crashCut', 'crashAfter', 'fastReply', 'timeout', 'retries', 'deadline', 'backoff', 'jitterLow', 'jitterScale',
  'retryAfter', 'shedRetryAfter', 'replanP', 'maxReplans', 'replanMin', 'replanMax', 'drift', 'verify',
  'crashP', 'resumeMin', 'resumeMax', 'maxReplays', 'scope', 'atomic', 'fpChecked', 'fpText', 'retention',
  'runningLife', 'transactional', 'storeErrors', 'latencyScale', 'storeDown', 'failOpen', 'trigger',
] as const satisfies readonly (keyof Params)[];
/** Every key of `Params` is in KEYS (a key added to the interface and not here fails to type-check). */
const EVERY_KEY: Exclude<keyof Params, (typeof KEYS)[number]> extends never ? true : false = true;

const SCENARIOS = {
  'lab defaults': '',
  'a trigger': 'idempotency: {scope: intent}\ntrigger: {preset: slack}\n',
  capacity: 'service: {capacity: {workers: 4, retry_after: 2s}}\nidempotency: {conflict_retry_after: 1s}\n',
  'a deadline, jitter, re-plans': 'client: {deadline: 30s, backoff: {jitter: full}}\nagent: {replan_probability: 0.5}\n',
};

describe('compile', () => {
  for (const [name, yaml] of Object.entries(SCENARIOS)) {
    it(`assigns every parameter (${name}), inside a window too`, () => {
      for (const p of [compile(parseRunnable(yaml)), compile(parseRunnable(yaml), { latencyScale: 3, storeDown: true })]) {
        expect(EVERY_KEY).toBe(true);
        expect(KEYS.filter((k) => !Object.hasOwn(p, k) || p[k] === undefined)).toEqual([]);
        expect(Object.keys(p).sort()).toEqual([...KEYS].sort());
        expect(p.reach.length).toBeGreaterThan(0);
      }
    });
  }
});

describe('the jitter as the engine reads it', () => {
  it('gives policy.ts\'s wait, bit for bit, for each jitter (jitterLow·d + jitterScale·d·u, and no draw without jitter)', () => {
    for (const jitter of ['none', 'full', 'equal'] as const) {
      const p = compile(parseRunnable(`client: {backoff: {jitter: ${jitter}}}`));
      expect(p.jitterScale > 0).toBe(jitter !== 'none');
      for (const d of [0, 0.1, 100, 333.3333333333333, 5000, 2 ** 40 + 1]) {
        for (const u of [0, 2 ** -32, 0.1, 0.5, 0.7071067811865476, 1 - 2 ** -32]) {
          const engine = p.jitterScale > 0 ? p.jitterLow * d + p.jitterScale * d * u : d; // attempt.ts `jittered`, its draw u
          expect(Object.is(engine, jittered(d, jitter, u))).toBe(true);
        }
      }
    }
  });
});
