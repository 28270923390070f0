/**
 * The engine's parameters (engine/compile.ts) are made by a constructor that assigns each field, and
 * TypeScript does not check that a class merged with the `Params` interface assigns them all: a field
 * left out would be undefined, and a comparison with it silently false. So every field is checked
 * an own property, defined, here, under scenarios that set the optional parts (a trigger, capacity, a
 * window). The list is checked against the interface both ways when the tests are type-checked.
 */
import { describe, expect, it } from 'vitest';
import { compile, type Params } from '../src/engine/compile.js';
import { ChunkSimulator } from '../src/engine/engine.js';
import { JITTERS } from '../src/model/enums.js';
import { jittered } from '../src/model/policy.js';
import { chunkRng, type Rng } from '../src/random/rng.js';
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
  it('gives policy.ts\'s wait, bit for bit, for every jitter (compile.ts reads it as jitterLow·d + jitterScale·d·u), drawing only when it jitters', () => {
    for (const jitter of JITTERS) {
      const sim = new ChunkSimulator(parseRunnable(`client: {backoff: {jitter: ${jitter}}}`), 100);
      const engine = sim as unknown as { rng: Rng; jittered(d: number): number };
      engine.rng = chunkRng('jitter', 0);
      const reference = chunkRng('jitter', 0);
      for (const d of [0, 0.1, 100, 333.3333333333333, 5000, 2 ** 40 + 1]) {
        for (let k = 0; k < 50; k++) {
          const wait = engine.jittered(d);
          expect(Object.is(wait, jittered(d, jitter, jitter === 'none' ? NaN : reference.next()))).toBe(true);
        }
      }
      expect(engine.rng.state()).toEqual(reference.state()); // one draw a wait where it jitters, none where it does not
    }
  });
});
