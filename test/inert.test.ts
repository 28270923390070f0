/**
 * The rules of src/model/inert.ts against the engine: under a rule's condition, changing any of
 * its keys changes no number of the run (same seed, every metric byte for byte). A rule that
 * named a key the model does read would fail here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INERT_RULES, inertSettings } from '../src/model/inert.js';
import { paramAt } from '../src/model/shape.js';
import { simulate } from '../src/exec/simulate.js';
import type { Scenario } from '../src/model/types.js';
import { parseScenario } from '../src/scenario/parse.js';
import { arbScenario } from './arbitrary.js';
import { runnable } from './helpers.js';

type Tree = Record<string, unknown>;

/** Another valid value of the key at `path` (a leaf or a section, changed leaf by leaf). */
function changed(path: string, value: unknown): unknown {
  const p = paramAt(path);
  if (!p) throw new Error(`no key ${path}`);
  switch (p.kind) {
    case 'probability': return value === 0.37 ? 0.73 : 0.37;
    case 'number': return Math.min(p.max, (value as number) + 1.5);
    case 'count': return Math.min(p.max ?? Infinity, (value as number) + 2);
    case 'flag': return !value;
    case 'choice': return p.values.find((v) => v !== value);
    case 'duration': return (value as number) + 1234;
    case 'optional_duration': return value === null ? 777 : null;
    case 'range': return { min: 5, max: 90_000 };
    case 'section': return Object.fromEntries(Object.entries(value as Tree).map(([k, v]) => [k, changed(`${path}.${k}`, v)]));
    default: throw new Error(`no change for ${p.kind}`);
  }
}

function withKey(s: Scenario, path: string): Scenario {
  const copy = structuredClone(s) as unknown as Tree;
  const keys = path.split('.');
  let node = copy;
  for (const k of keys.slice(0, -1)) node = node[k] as Tree;
  const last = keys[keys.length - 1] as string;
  node[last] = changed(path, node[last]);
  return copy as unknown as Scenario;
}

/** Makes a rule's condition hold. */
const FORCE: Record<string, (s: Scenario) => Scenario> = {
  'idempotency.scope is none': (s) => ({ ...s, idempotency: { ...s.idempotency, scope: 'none' } }),
  'idempotency.claim is check_then_act': (s) => ({ ...s, idempotency: { ...s.idempotency, claim: 'check_then_act' } }),
  'runtime.crash_probability is 0': (s) => ({ ...s, runtime: { ...s.runtime, crash_probability: 0 } }),
  'runtime.max_replays is 0': (s) => ({ ...s, runtime: { ...s.runtime, max_replays: 0 } }),
  'workload.twin_probability is 0': (s) => ({ ...s, workload: { ...s.workload, twin_probability: 0 } }),
  'agent.replan_probability is 0': (s) => ({ ...s, agent: { ...s.agent, replan_probability: 0 } }),
  'agent.max_replans is 0': (s) => ({ ...s, agent: { ...s.agent, max_replans: 0 } }),
  'no call is re-planned or replayed': (s) => ({ ...s, agent: { ...s.agent, replan_probability: 0 }, runtime: { ...s.runtime, crash_probability: 0 } }),
  'service.crash_probability is 0': (s) => ({ ...s, service: { ...s.service, crash_probability: 0 } }),
  'service.error_rate is 0': (s) => ({ ...s, service: { ...s.service, error_rate: 0 } }),
  'client.retries is 0': (s) => ({ ...s, client: { ...s.client, retries: 0 } }),
  // An incident, but one that leaves the key store up.
  'no incident takes the key store down': (s) => ({ ...s, incidents: [{
    name: 'slow', from: 0, to: 30_000, service: { latency_multiplier: 3, error_rate: null, crash_probability: null, capacity: { workers: null } },
    network: { request_loss: null, reply_loss: null }, store: { down: null }, runtime: { crash_probability: null },
  }] }),
};
const forceOf = (because: string) => {
  const key = Object.keys(FORCE).find((k) => because.startsWith(k));
  if (!key) throw new Error(`no way to force "${because}"`);
  return FORCE[key] as (s: Scenario) => Scenario;
};

describe('inert settings', () => {
  for (const rule of INERT_RULES) {
    it(`${rule.because}: ${rule.keys.join(', ')} change nothing`, () => {
      const force = forceOf(rule.because);
      fc.assert(fc.property(arbScenario(1500), fc.constantFrom(...rule.keys), (arb, path) => {
        const s = force(arb);
        expect(rule.when(s)).toBe(true);
        const a = JSON.stringify(simulate(s, 'inert').metrics);
        const b = JSON.stringify(simulate(withKey(s, path), 'inert').metrics);
        expect(b).toBe(a);
      }), { numRuns: 40, seed: 7 });
    });
  }

  it('runtime.crash_probability with max_replays 0 changes nothing under a trigger either: a crash is drawn only while a replay is left', () => {
    // Steps end after their deadline (2 s against 1 s), so a crash that withheld the acknowledgement would show as deliveries.
    const yaml = (p: number) => `actions: 2000\nservice: {latency: {dist: constant, value: 2s}}\nnetwork: {reply_loss: 0}\nclient: {timeout: 5s, retries: 0}\n`
      + `agent: {replan_probability: 0}\nruntime: {crash_probability: ${p}, max_replays: 0}\ntrigger: {kind: webhook, ack_timeout: 1h, redeliveries: 1}\n`;
    const [crashing, calm] = [1, 0].map((p) => parseScenario(yaml(p), 't.yaml'));
    expect(crashing!.warnings.map((w) => w.keyPath)).toEqual(['runtime.crash_probability']);
    expect(JSON.stringify(simulate(crashing!.scenario as Scenario, 'inert').metrics)).toBe(JSON.stringify(simulate(calm!.scenario as Scenario, 'inert').metrics));
  });

  it('names the written keys that are inert, once each, with the first reason', () => {
    const s = structuredClone(arbScenarioDefault());
    expect(inertSettings(s, ['runtime.resume_delay.min', 'idempotency.retention', 'client.timeout', 'runtime.resume_delay.max', 'idempotency.conflict_retry_after'])).toEqual([
      { path: 'runtime.resume_delay', because: 'runtime.crash_probability is 0, so no run is resumed' },
      { path: 'idempotency.retention', because: 'idempotency.scope is none, so no key is claimed, stored or looked up' },
      { path: 'idempotency.conflict_retry_after', because: 'idempotency.scope is none, so no key is claimed, stored or looked up' },
    ]);
  });
});

function arbScenarioDefault(): Scenario {
  return fc.sample(arbScenario(10).map((s) => ({ ...s, runtime: { ...s.runtime, crash_probability: 0 }, idempotency: { ...s.idempotency, scope: 'none' as const } })), { numRuns: 1, seed: 1 })[0] as Scenario;
}

describe('inert settings, as a scenario file is read', () => {
  const warned = (yaml: string) => parseScenario(yaml, 's.yaml').warnings.map((w) => `${w.keyPath}: ${w.problem}`);

  it('warns of written keys that change nothing, with the reason, and of a server preset without a key', () => {
    expect(warned('preset: stripe\nruntime:\n  resume_delay: {min: 1m, max: 5m}\nagent: {replan_probability: 0, verify_before_replan: true}\n')).toEqual([
      'preset: has no effect: the preset fills the idempotency keys, but idempotency.scope is none, so no key is used',
      'runtime.resume_delay: has no effect: runtime.crash_probability is 0, so no run is resumed',
      'agent.verify_before_replan: has no effect: agent.replan_probability is 0, so no call is re-planned',
    ]);
    expect(parseScenario('workload: {twin_delay: {min: 2s, max: 3s}}', 's.yaml').warnings[0]).toMatchObject({ origin: { source: 's.yaml', line: 1 }, keyPath: 'workload.twin_delay' });
    expect(warned('idempotency: {scope: intent, claim: check_then_act, conflict_retry_after: 2s}')).toEqual([
      'idempotency.conflict_retry_after: has no effect: idempotency.claim is check_then_act, which never leaves a key running, so no 409 is answered',
    ]);
  });

  it('warns of a preset every key of which the file writes itself, and not of one that still fills a key', () => {
    const client = 'client:\n  preset: stripe-sdk\n  backoff: {base: 1s, multiplier: 3, max: 9s, jitter: full}\n';
    expect(warned(client)).toEqual([
      'client.preset: has no effect: the scenario sets every key the preset fills (client.backoff.base, client.backoff.multiplier, client.backoff.max, client.backoff.jitter), and its own keys win',
    ]);
    expect(parseScenario(client, 's.yaml').warnings[0]).toMatchObject({ origin: { source: 's.yaml', line: 2 } });
    expect(warned('client:\n  preset: stripe-sdk\n  backoff: {base: 1s, multiplier: 3, max: 9s}\n')).toEqual([]);
    expect(warned('preset: powertools\nidempotency: {scope: intent, retention: 2h, on_error: store, claim: check_then_act}\nservice: {error_rate: 0.01}\n')).toEqual([
      'preset: has no effect: the scenario sets every key the preset fills (idempotency.retention, idempotency.on_error, idempotency.claim), and its own keys win',
    ]);
    expect(warned('preset: powertools\nidempotency: {scope: intent, retention: 2h}\n')).toEqual([]);
    // Under scope none the preset has its own warning, once.
    expect(warned('preset: powertools\nidempotency: {retention: 2h, on_error: store, claim: check_then_act}\nservice: {error_rate: 0.01}\n').filter((w) => w.startsWith('preset:')))
      .toEqual(['preset: has no effect: the preset fills the idempotency keys, but idempotency.scope is none, so no key is used']);
    // Against the engine: without the preset, the same run.
    for (const [withPreset, without] of [[client, client.replace('  preset: stripe-sdk\n', '')], ['preset: powertools\nidempotency: {scope: intent, retention: 2h, on_error: store, claim: check_then_act}\nservice: {error_rate: 0.01}\n', 'idempotency: {scope: intent, retention: 2h, on_error: store, claim: check_then_act}\nservice: {error_rate: 0.01}\n']] as const) {
      const run = (yaml: string) => simulate(runnable(parseScenario(`actions: 3000\n${yaml}`, 's.yaml').scenario), 'preset').metrics;
      expect(run(withPreset)).toEqual(run(without));
    }
  });

  it('does not warn of a key written with its default (a file that spells out the lab), nor of keys that count', () => {
    expect(warned('idempotency: {retention: 1h, lease: none}\nruntime: {resume_delay: {min: 2m, max: 20m}}\n')).toEqual([]);
    expect(warned('idempotency: {scope: intent, retention: 24h}\nruntime: {crash_probability: 0.1, resume_delay: {min: 1m, max: 5m}}\n')).toEqual([]);
  });
});
