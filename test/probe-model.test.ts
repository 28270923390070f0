/**
 * The model is written twice: the engine (src/engine/engine.ts) and the probe's client, agent
 * and server (src/probe/agent.ts, service.ts) around the protocol in memory
 * (src/stores/memory.ts). Here the second runs on the probe's virtual clock, with no store and
 * no real time, beside the first on the same scenario and seed: the probe's "model" column
 * against its "simulator" column, as probe.services.test.ts compares them with real stores.
 * The two draw their numbers differently (the engine from a chunk's stream, the probe from a
 * stream drawn in advance per attempt), so they agree exactly where the scenario leaves
 * nothing to chance, and within the engine's spread for a stream of this size elsewhere.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backoffDelay, jittered, KEY_IDENTITY, keyName, retryWait, shouldReplan, shouldReplay, withinDeadline } from '../src/model/policy.js';
import type { Scenario, Scope } from '../src/model/types.js';
import { expectedCounts } from '../src/probe/expected.js';
import { predictStream } from '../src/probe/replay.js';
import { ProbeStream } from '../src/probe/stream.js';
import type { Override } from '../src/scenario/parse.js';
import { parseRunnable, RACE_ACTIONS, RACE_YAML, ROOT } from './helpers.js';

const COUNTS = ['attempts', 'executions', 'duplicates', 'lost', 'merged', 'unknown_outcomes', 'conflicts_409', 'mismatches_422', 'dedup_hits'] as const;

function scenarioOf(yaml: string, sets: Record<string, string> = {}): Scenario {
  const overrides: Override[] = Object.entries(sets).map(([key, text]) => ({ path: key.split('.'), text, option: `--set ${key}=${text}` }));
  return parseRunnable(yaml, 'test.yaml', overrides);
}

/**
 * The probe's prediction for its stream (agent + MemoryStore on the virtual clock), and the
 * engine's expectation for a stream of its size from `simulated` primary actions.
 */
async function bothSides(scenario: Scenario, seed: string, primaries: number, simulated?: number) {
  const stream = new ProbeStream(scenario, seed, primaries);
  const { counts } = await predictStream(stream, 'ok');
  return { counts, engine: expectedCounts(scenario, seed, stream.actions.length, simulated).expected };
}

/**
 * Every handler takes 600ms, longer than the 200ms timeout; the retries come while the first
 * attempt still runs. Nothing is random but the arrivals, which no count depends on (keys
 * never cross business identities). The same stream as probe.services.test.ts's RACE.
 */
const RACE = RACE_YAML;
const ACTIONS = RACE_ACTIONS;
/** Primary actions the engine runs for a stream that leaves nothing to chance: every group does the same. */
const EXACT_SIMULATED = 2_000;

/** Variants of RACE that exercise each decision of the policy (and the store's) with nothing left to chance. */
const EXACT: Record<string, Record<string, string>> = {
  'atomic': {},
  'check_then_act': { 'idempotency.claim': 'check_then_act' },
  'transactional': { 'idempotency.transactional': 'true' },
  "three retries, conflict_retry_after past the handler's end": { 'client.retries': '3', 'idempotency.conflict_retry_after': '400ms' },
  'three retries, check_then_act': { 'client.retries': '3', 'idempotency.claim': 'check_then_act' },
  'a deadline that stops the third retry': { 'client.retries': '3', 'client.deadline': '500ms' },
  'backoff capped by max': { 'client.retries': '4', 'client.backoff': '{base: 100ms, multiplier: 10, max: 300ms, jitter: none}' },
  'backoff base 0': { 'client.retries': '2', 'client.backoff': '{base: 0ms, multiplier: 2, max: 1s, jitter: none}' },
  'a lease that lapses while the handler runs': { 'client.retries': '3', 'idempotency.lease': '250ms' },
  'a 5xx released': { 'service.error_rate': '1', 'client.retries': '2', 'client.timeout': '1s' },
  'a 5xx stored': { 'service.error_rate': '1', 'client.retries': '2', 'client.timeout': '1s', 'idempotency.on_error': 'store' },
  'a re-plan with a new call key': { 'agent.replan_probability': '1', 'agent.replan_delay': '{min: 2s, max: 2s}', 'idempotency.scope': 'call' },
  'a re-plan with the intent key': { 'agent.replan_probability': '1', 'agent.replan_delay': '{min: 2s, max: 2s}' },
  'a re-plan skipped by verify_before_replan': {
    'agent.replan_probability': '1', 'agent.replan_delay': '{min: 2s, max: 2s}', 'agent.verify_before_replan': 'true', 'idempotency.scope': 'call',
  },
  'a re-plan whose arguments drift, text key': {
    'agent.replan_probability': '1', 'agent.replan_delay': '{min: 2s, max: 2s}', 'agent.arg_drift_probability': '1', 'idempotency.scope': 'text',
  },
  'a replay after every step, attempt key': {
    'runtime.crash_probability': '1', 'runtime.max_replays': '2', 'runtime.resume_delay': '{min: 1s, max: 1s}', 'idempotency.scope': 'attempt',
  },
  'a twin, business key: merged': { 'workload.twin_probability': '1', 'workload.twin_delay': '{min: 5s, max: 5s}', 'idempotency.scope': 'business' },
  'a twin, business key, full fingerprint: 422': {
    'workload.twin_probability': '1', 'workload.twin_delay': '{min: 5s, max: 5s}', 'idempotency.scope': 'business', 'idempotency.fingerprint': 'full',
  },
  'a twin while the first runs, business key: 409': { 'workload.twin_probability': '1', 'workload.twin_delay': '{min: 100ms, max: 100ms}', 'idempotency.scope': 'business' },
};

describe('the probe on the virtual clock equals the engine where the scenario leaves nothing to chance', () => {
  for (const [name, sets] of Object.entries(EXACT)) {
    it(name, async () => {
      const scenario = scenarioOf(RACE, sets);
      const { counts, engine } = await bothSides(scenario, '1', ACTIONS, EXACT_SIMULATED);
      for (const k of COUNTS) {
        const e = engine[k];
        expect(e, k).toBeDefined();
        // Without twins every action the engine ran did the same: its spread is nil.
        // (A twin's counts differ from its primary's, the same in every group.)
        if (scenario.workload.twin_probability === 0) expect(e?.spread95[1], `${k}: the engine's spread`).toBeCloseTo(e?.spread95[0] ?? NaN, 9);
        expect(counts[k], k).toBeCloseTo(e?.value ?? NaN, 9);
      }
    });
  }

  it('the race as the services tests assert it: atomic answers the retry 409, check_then_act executes it', async () => {
    const atomic = (await bothSides(scenarioOf(RACE), '1', ACTIONS, EXACT_SIMULATED)).counts;
    const broken = (await bothSides(scenarioOf(RACE, { 'idempotency.claim': 'check_then_act' }), '1', ACTIONS, EXACT_SIMULATED)).counts;
    expect(atomic).toMatchObject({ executions: ACTIONS, duplicates: 0, conflicts_409: ACTIONS, unknown_outcomes: ACTIONS });
    expect(broken).toMatchObject({ executions: 2 * ACTIONS, duplicates: ACTIONS, conflicts_409: 0, unknown_outcomes: ACTIONS });
  });
});

/**
 * Random streams: each bundled scenario (scope none, which the probe refuses, set to intent).
 * Tolerance: 4 standard deviations of a count over the stream, sd·√n, from the engine's
 * spread95 (= mean ± 1.96·sd·√n), plus its own 95% interval; and 1, for a count the engine's
 * larger run saw too seldom to give it a spread.
 */
const PRIMARIES = 1500;
const BUNDLED = ['lab-defaults', 'mission-1-blind-retries', 'mission-2-slow-downstream', 'mission-3-crash-replays', 'mission-4-slow-and-lossy', 'belgavi-refunds'];

describe('the probe on the virtual clock agrees with the engine on random streams', () => {
  for (const file of [...BUNDLED, ...BUNDLED.slice(1, 5).map((f) => `solutions/${f}`)]) {
    it(file, async () => {
      const text = readFileSync(join(ROOT, 'scenarios', `${file}.yaml`), 'utf8');
      const parsed = scenarioOf(text);
      const scenario = parsed.idempotency.scope === 'none' ? scenarioOf(text, { 'idempotency.scope': 'intent' }) : parsed;
      const { counts, engine } = await bothSides(scenario, '7', PRIMARIES);
      for (const k of COUNTS) {
        const e = engine[k];
        if (!e) throw new Error(`no expectation for ${k}`);
        const tolerance = (4 / 1.96) * (e.spread95[1] - e.value) + (e.ci95[1] - e.ci95[0]) / 2 + 1;
        expect(Math.abs(counts[k] - e.value), `${k}: ${counts[k]} against the engine's ${e.value.toFixed(1)} ± ${tolerance.toFixed(1)}`).toBeLessThanOrEqual(tolerance);
      }
    });
  }
});

describe('the shared policy (src/model/policy.ts)', () => {
  const b = { base: 100, multiplier: 2, max: 5_000, jitter: 'full' as const };

  it('backoff: base · multiplier^(j − 1), capped by max; base 0 stays 0 where the power overflows', () => {
    expect([1, 2, 3, 6, 7].map((j) => backoffDelay(b, j))).toEqual([100, 200, 400, 3_200, 5_000]);
    expect(backoffDelay({ ...b, base: 0, multiplier: 10 }, 400)).toBe(0); // 10 ** 399 is Infinity, 0 · Infinity NaN
  });

  it('jitter: full d·u, equal d/2 + d/2·u, none d (u unused); a 409 waits at least conflict_retry_after', () => {
    expect([jittered(400, 'full', 0.25), jittered(400, 'equal', 0.25), jittered(400, 'none', 0.25)]).toEqual([100, 250, 400]);
    expect([retryWait(100, true, 150), retryWait(200, true, 150), retryWait(100, false, 150)]).toEqual([150, 200, 100]);
  });

  it('the deadline counts from the call\'s start, inclusive; re-plans and replays within their budget and chance', () => {
    expect([withinDeadline(1_500, 500, 1_000), withinDeadline(1_501, 500, 1_000), withinDeadline(1e12, 0, null)]).toEqual([true, false, true]);
    expect([shouldReplan(0, 1, 0.6, 0.59), shouldReplan(0, 1, 0.6, 0.6), shouldReplan(1, 1, 1, 0)]).toEqual([true, false, false]);
    expect([shouldReplay(1, 2, 0.1, 0.05), shouldReplay(2, 2, 1, 0), shouldReplay(0, 1, 0, 0)]).toEqual([true, false, false]);
  });

  it('keys: each scope names its identity, the same for the attempts that share it and only for them', () => {
    const at = (action: number, group: number, call: number, attempt: number, text: string) => ({ action, group, call, attempt, text });
    const first = at(3, 3, 0, 0, '3');
    const pairs = { retry: at(3, 3, 0, 1, '3'), replan: at(3, 3, 1, 0, '3'), drifted: at(3, 3, 1, 0, '3.1'), twin: at(9, 3, 0, 0, '9') };
    const shared = Object.fromEntries((Object.keys(KEY_IDENTITY) as Scope[]).map((scope) => [scope,
      Object.entries(pairs).filter(([, k]) => keyName(scope, k) !== null && keyName(scope, k) === keyName(scope, first)).map(([name]) => name)]));
    expect(shared).toEqual({
      none: [], attempt: [], call: ['retry'], intent: ['retry', 'replan', 'drifted'], business: ['retry', 'replan', 'drifted', 'twin'], text: ['retry', 'replan'],
    });
  });
});
