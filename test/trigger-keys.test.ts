/**
 * The keys of docs/model.md's "Inbound delivery" as a scenario writes them (`trigger:`): their
 * defaults, the providers' presets with a key beside them winning, the refusals (file, line, key
 * and a fix), the warnings on settings that do nothing (each checked against the engine: the
 * setting changes no number), agent files, and the outputs of a scenario without a trigger.
 */
import { describe, expect, it } from 'vitest';
import { echoed } from '../src/model/clock.js';
import { DEFAULT_SCENARIO, paramAt } from '../src/model/shape.js';
import type { Trigger } from '../src/model/trigger.js';
import { simulate } from '../src/exec/simulate.js';
import { parseAgent } from '../src/agent/parse.js';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario, type Override } from '../src/scenario/parse.js';
import { TRIGGER_PRESETS } from '../src/scenario/presets.js';
import { isDurationKey } from '../src/scenario/schema.js';
import { PartChecker } from '../src/shards/part-check.js';
import { scenarioFingerprint } from '../src/shards/partial.js';
import { parseRunnable, runnable } from './helpers.js';

const parse = (text: string, overrides: Override[] = []) => parseScenario(text, 's.yaml', overrides);
const set = (path: string, text: string): Override => ({ path: path.split('.'), text, option: `--set ${path}=${text}` });
const trigger = (text: string): Trigger | null => parse(text).scenario.trigger;

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

/** The warnings on trigger keys, as `key: problem`. */
const warned = (text: string): string[] => parse(text).warnings.filter((w) => w.keyPath.startsWith('trigger')).map((w) => `${w.keyPath}: ${w.problem}`);

const DEFAULTS: Omit<Trigger, 'ack_timeout'> = {
  kind: 'webhook', ack: 'after_step', redeliveries: 3, schedule: [0], ack_loss: 0, consumer_crash: 0, run_id: 'per_delivery', extend_up_to: null, dedupe: 'none',
};
const S = 1000, M = 60_000, H = 3_600_000;

describe('the trigger keys resolve', () => {
  it('are none by default: a scenario without trigger, or with trigger: none or null, resolves to null', () => {
    expect(DEFAULT_SCENARIO.trigger).toBeNull();
    expect(trigger('actions: 10')).toBeNull();
    expect(trigger('trigger: none')).toBeNull();
    expect(trigger('trigger: null')).toBeNull();
  });

  it('fill a mapping from their defaults, times in ms', () => {
    expect(trigger('trigger: {ack_timeout: 3s}')).toEqual({ ...DEFAULTS, ack_timeout: 3 * S });
    expect(trigger('trigger:\n  kind: queue\n  ack_timeout: 30s\n  ack: on_receipt\n  redeliveries: 0\n  schedule: [0s, 1m, 5m]\n  ack_loss: 0.1\n  consumer_crash: 0.2\n  run_id: from_message\n  extend_up_to: 1h\n  dedupe: by_message\n'))
      .toEqual({ kind: 'queue', ack_timeout: 30 * S, ack: 'on_receipt', redeliveries: 0, schedule: [0, M, 5 * M], ack_loss: 0.1, consumer_crash: 0.2, run_id: 'from_message', extend_up_to: H, dedupe: 'by_message' });
    expect(trigger('trigger: {ack_timeout: 1s, extend_up_to: none}')?.extend_up_to).toBeNull();
  });

  it('give each resolved trigger its own schedule (the default list is not shared)', () => {
    const a = trigger('trigger: {ack_timeout: 1s}') as Trigger;
    a.schedule.push(5);
    expect(trigger('trigger: {ack_timeout: 1s}')?.schedule).toEqual([0]);
  });

  it('know the schedule\'s entries are durations, and --set opens the section', () => {
    expect(paramAt('trigger.schedule')).toMatchObject({ kind: 'durations', min: 1, max: 100 });
    for (const path of ['trigger.ack_timeout', 'trigger.extend_up_to', 'trigger.schedule', 'trigger.schedule[2]']) expect(isDurationKey(path), path).toBe(true);
    expect(isDurationKey('trigger.redeliveries')).toBe(false);
    expect(parse('actions: 10', [set('trigger.ack_timeout', '2s')]).scenario.trigger).toEqual({ ...DEFAULTS, ack_timeout: 2 * S });
    expect(parse('trigger: none', [set('trigger.preset', 'github')]).scenario.trigger).toMatchObject({ ack_timeout: 10 * S, redeliveries: 0 });
    expect(parse('trigger: {ack_timeout: 1s}', [set('trigger.schedule', '[1s, 1m]')]).scenario.trigger?.schedule).toEqual([S, M]);
  });
});

describe('the trigger presets', () => {
  const RESOLVED: Record<string, Partial<Trigger>> = {
    slack: { kind: 'webhook', ack_timeout: 3 * S, redeliveries: 3, schedule: [0, M, 5 * M], extend_up_to: null },
    'slack-delayed': { kind: 'webhook', ack_timeout: 3 * S, redeliveries: 27, schedule: [0, M, 5 * M, H] },
    sqs: { kind: 'queue', ack_timeout: 30 * S, redeliveries: 11_519, schedule: [0], extend_up_to: null },
    'sqs-dlq': { kind: 'queue', ack_timeout: 30 * S, redeliveries: 9, schedule: [0] },
    pubsub: { kind: 'queue', ack_timeout: 10 * S, extend_up_to: 60 * M, redeliveries: 167, schedule: [0] },
    'pubsub-dlq': { kind: 'queue', ack_timeout: 10 * S, extend_up_to: 60 * M, redeliveries: 4, schedule: [0] },
    github: { kind: 'webhook', ack_timeout: 10 * S, redeliveries: 0, schedule: [0] },
    svix: { kind: 'webhook', ack_timeout: 15 * S, redeliveries: 7, schedule: [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H] },
  };

  it('resolve each to the provider\'s documented values, the consumer\'s keys at their defaults', () => {
    expect(Object.keys(TRIGGER_PRESETS)).toEqual(Object.keys(RESOLVED));
    for (const [name, values] of Object.entries(RESOLVED)) {
      const t = trigger(`trigger: {preset: ${name}}`);
      expect(t, name).toEqual({ ...DEFAULTS, ...values });
    }
  });

  it('set only what a sender documents, each with its source; the retention-bound counts say what they assume', () => {
    for (const [name, preset] of Object.entries(TRIGGER_PRESETS)) {
      const keys = Object.keys((preset.values as { trigger: object }).trigger);
      expect(keys.every((k) => ['kind', 'ack_timeout', 'redeliveries', 'schedule', 'extend_up_to'].includes(k)), name).toBe(true);
      expect(preset.source, name).toMatch(/https:\/\//);
    }
    expect(TRIGGER_PRESETS['sqs']?.source).toMatch(/worked out for the default 30 s window/);
    expect(TRIGGER_PRESETS['pubsub']?.source).toMatch(/worked out for the default window of 60 minutes/);
    expect(TRIGGER_PRESETS['github']?.source).toMatch(/does not automatically redeliver/);
  });

  it('let a key written beside them win, from the file and from --set', () => {
    expect(trigger('trigger: {preset: slack, ack_timeout: 5s, run_id: from_message}')).toEqual({ ...DEFAULTS, ...RESOLVED['slack'], ack_timeout: 5 * S, run_id: 'from_message' });
    expect(trigger('trigger: {preset: pubsub, extend_up_to: none}')?.extend_up_to).toBeNull();
    expect(parse('trigger: {preset: sqs}', [set('trigger.redeliveries', '2')]).scenario.trigger?.redeliveries).toBe(2);
  });
});

describe('the trigger keys refused', () => {
  it.each([
    ['trigger: {kind: queue}', 1, 'trigger', /missing key "ack_timeout"\. A trigger needs the sender's deadline: write ack_timeout, .*or name a provider's preset/],
    ['trigger:\n  ack_timeout: 0\n', 2, 'trigger.ack_timeout', /is 0: the sender would give up on every delivery .*Give the sender's deadline above 0/],
    ['trigger:\n  ack_timeout: 3\n', 2, 'trigger.ack_timeout', /3 has no unit\. .*write 3s or 3ms/],
    ['trigger:\n  ack_timeout: 1s\n  schedule: [0s, 60]\n', 3, 'trigger.schedule[1]', /60 has no unit/],
    ['trigger:\n  ack_timeout: 1s\n  schedule: []\n', 3, 'trigger.schedule', /got \[\], expected a list of 1 to 100 durations.*Give at least one wait, such as \[0s\]/],
    ['trigger:\n  ack_timeout: 1s\n  schedule: 5s\n', 3, 'trigger.schedule', /expected a list of 1 to 100 durations.*Write the waits as a list/],
    ['trigger:\n  ack_timeout: 1s\n  redeliveries: 100001\n', 3, 'trigger.redeliveries', /got 100001, expected a whole number >= 0.*Give at most 100000 redeliveries/],
    ['trigger:\n  ack_timeout: 1s\n  consumer_crash: 1.5\n', 3, 'trigger.consumer_crash', /got 1\.5, expected a probability between 0 and 1/],
    ['trigger:\n  preset: slak\n', 2, 'trigger.preset', /Did you mean `slack`\?/],
    ['trigger: slack\n', 1, 'trigger', /write trigger: \{preset: slack\}/],
  ] as const)('%j at its line, naming the key and the fix', (text, line, key, message) => {
    const e = refusal(text);
    expect(e.origin).toMatchObject({ source: 's.yaml', line });
    expect(e.keyPath).toBe(key);
    expect(e.message).toMatch(message);
  });

  it('a schedule of more than 100 entries, and a --set of ack_timeout 0, name their fix and option', () => {
    expect(refusal(`trigger: {ack_timeout: 1s, schedule: [${Array(101).fill('1s').join(', ')}]}`).message).toMatch(/Give at most 100 waits/);
    expect(refusal('trigger: {preset: slack}', [set('trigger.ack_timeout', '0')]).origin).toEqual({ source: '--set trigger.ack_timeout=0' });
  });

  it('a part\'s scenario holds the same rules', () => {
    const s = { ...parse('trigger: {ack_timeout: 1s}').scenario };
    const check = (t: unknown) => () => new PartChecker('p.json').scenario(JSON.parse(JSON.stringify({ ...s, trigger: t })), 'runs[0].scenario');
    expect(check(s.trigger)).not.toThrow();
    expect(check(null)).not.toThrow();
    expect(check({ ...s.trigger, ack_timeout: 0 })).toThrow(/runs\[0\]\.scenario\.trigger\.ack_timeout: is 0/);
    expect(check({ ...s.trigger, schedule: [] })).toThrow(/trigger\.schedule: expected 1 to 100 entries/);
    expect(check({ ...s.trigger, redeliveries: 1e6 })).toThrow(/trigger\.redeliveries: expected a whole number from 0 to 100000/);
  });
});

describe('the trigger warnings', () => {
  it('run_id with a scope that derives no key from the run id, and not with intent', () => {
    expect(warned('trigger: {ack_timeout: 1s, run_id: from_message}')).toEqual(['trigger.run_id: has no effect: idempotency.scope is none, and only intent keys are derived from the run id']);
    expect(warned('idempotency: {scope: business}\ntrigger: {ack_timeout: 1s, run_id: from_message}')).toHaveLength(1);
    expect(warned('idempotency: {scope: intent}\ntrigger: {ack_timeout: 1s, run_id: from_message}')).toEqual([]);
    // Written with its default, it changes nothing whatever the others say: no warning.
    expect(warned('trigger: {ack_timeout: 1s, run_id: per_delivery}')).toEqual([]);
  });

  it('run_id and dedupe by message: one run an action at most', () => {
    expect(warned('idempotency: {scope: intent}\ntrigger: {ack_timeout: 1s, run_id: from_message, dedupe: by_message}'))
      .toEqual(['trigger.run_id: has no effect: trigger.dedupe is by_message, so an action starts one run at most and no other delivery\'s run shares or misses its key']);
  });

  it('acknowledged on receipt with no loss: nothing is delivered twice, so dedupe, schedule and the rest do nothing', () => {
    expect(warned('trigger: {ack_timeout: 1s, ack: on_receipt, dedupe: by_message, schedule: [1m], redeliveries: 5}').map((w) => w.split(':')[0])).toEqual([
      'trigger.redeliveries', 'trigger.schedule', 'trigger.dedupe',
    ]);
    expect(warned('trigger: {ack_timeout: 1s, ack: on_receipt, dedupe: by_message}')[0]).toMatch(/trigger\.ack is on_receipt and trigger\.ack_loss is 0/);
    expect(warned('trigger: {ack_timeout: 1s, ack: on_receipt, ack_loss: 0.1, dedupe: by_message}')).toEqual([]);
    expect(warned('trigger: {ack_timeout: 1s, dedupe: by_message}')).toEqual([]);
  });

  it('a schedule with no redelivery, or longer than the redeliveries', () => {
    expect(warned('trigger: {ack_timeout: 1s, redeliveries: 0, schedule: [1m]}')).toEqual(['trigger.schedule: has no effect: trigger.redeliveries is 0, so no action is delivered a second time']);
    expect(warned('trigger: {ack_timeout: 1s, redeliveries: 2, schedule: [1s, 2s, 3s]}')).toEqual(['trigger.schedule: holds 3 waits, but trigger.redeliveries is 2, so the waits after the first 2 are never used']);
    expect(warned('trigger: {ack_timeout: 1s, redeliveries: 3, schedule: [1s, 2s, 3s]}')).toEqual([]);
    // A preset's schedule is the provider's: fewer redeliveries beside it are not warned of.
    expect(warned('trigger: {preset: svix, redeliveries: 2}')).toEqual([]);
    expect(warned('trigger: {preset: github}')).toEqual([]);
  });

  it('extend_up_to at or below ack_timeout, and not above it', () => {
    expect(warned('trigger: {ack_timeout: 10s, extend_up_to: 10s}')).toEqual(['trigger.extend_up_to: has no effect: it is not longer than trigger.ack_timeout (10s), so every deadline stays ack_timeout after its delivery']);
    expect(warned('trigger: {ack_timeout: 10s, extend_up_to: 11s}')).toEqual([]);
  });

  it('a preset whose every key is written beside it', () => {
    expect(warned('trigger: {preset: github, kind: webhook, ack_timeout: 5s, redeliveries: 0}')).toEqual([
      'trigger.preset: has no effect: the scenario sets every key the preset fills (trigger.kind, trigger.ack_timeout, trigger.redeliveries), and its own keys win',
    ]);
  });

  it('each warned setting changes no number of the run (the engine agrees)', () => {
    const base = 'actions: 400\nservice: {latency: {median: 800ms, sigma: 1}}\nclient: {retries: 1}\nnetwork: {reply_loss: 0.05}\n';
    const pairs: [string, string][] = [
      ['idempotency: {scope: business}\ntrigger: {ack_timeout: 1s, run_id: from_message}', 'idempotency: {scope: business}\ntrigger: {ack_timeout: 1s}'],
      ['idempotency: {scope: intent}\ntrigger: {ack_timeout: 1s, run_id: from_message, dedupe: by_message}', 'idempotency: {scope: intent}\ntrigger: {ack_timeout: 1s, dedupe: by_message}'],
      ['trigger: {ack_timeout: 1s, ack: on_receipt, consumer_crash: 0.1, dedupe: by_message, redeliveries: 9, schedule: [1m], extend_up_to: 1h}', 'trigger: {ack_timeout: 1s, ack: on_receipt, consumer_crash: 0.1}'],
      ['trigger: {ack_timeout: 1s, redeliveries: 0, schedule: [1m], dedupe: by_message}', 'trigger: {ack_timeout: 1s, redeliveries: 0}'],
      ['trigger: {ack_timeout: 1s, extend_up_to: 1s}', 'trigger: {ack_timeout: 1s}'],
      ['trigger: {ack_timeout: 1s, redeliveries: 2, schedule: [1s, 2s, 3s]}', 'trigger: {ack_timeout: 1s, redeliveries: 2, schedule: [1s, 2s]}'],
    ];
    const run = (yaml: string) => JSON.stringify(simulate(parseRunnable(`${base}${yaml}`), 'inert').metrics);
    for (const [warnedOf, without] of pairs) {
      expect(warned(`${base}${warnedOf}`).length, warnedOf).toBeGreaterThan(0);
      expect(run(warnedOf), warnedOf).toBe(run(without));
    }
    // Where they are not warned of, the same settings count.
    const counted: [string, string][] = [
      ['idempotency: {scope: intent}\ntrigger: {ack_timeout: 1s, run_id: from_message}', 'idempotency: {scope: intent}\ntrigger: {ack_timeout: 1s}'],
      ['trigger: {ack_timeout: 1s, ack: on_receipt, ack_loss: 0.3, dedupe: by_message}', 'trigger: {ack_timeout: 1s, ack: on_receipt, ack_loss: 0.3}'],
      ['trigger: {ack_timeout: 1s, extend_up_to: 3s}', 'trigger: {ack_timeout: 1s}'],
    ];
    for (const [a, b] of counted) {
      expect(warned(`${base}${a}`), a).toEqual([]);
      expect(run(a), a).not.toBe(run(b));
    }
  });
});

describe('a trigger in an agent file', () => {
  const agent = (body: string) => parseAgent(`agent: {calls_per_s: 10}\n${body}`, 'agent.yaml', 'agent.yaml');
  it('is taken in defaults: for every tool, and a tool\'s own keys win', () => {
    const a = agent('defaults:\n  trigger: {preset: slack}\ntools:\n  - {name: a, share: 0.5}\n  - name: b\n    share: 0.5\n    scenario: {trigger: {ack_timeout: 10s}}\n');
    const [ta, tb] = a.tools.map((t) => t.parsed.scenario.trigger);
    expect(ta).toMatchObject({ ack_timeout: 3 * S, redeliveries: 3 });
    expect(tb).toMatchObject({ ack_timeout: 10 * S, redeliveries: 3, schedule: [0, M, 5 * M] });
  });

  it('is taken per tool, and a tool may leave a default trigger out', () => {
    const a = agent('defaults:\n  trigger: {preset: sqs}\ntools:\n  - {name: a, share: 0.5, scenario: {trigger: none}}\n  - {name: b, share: 0.5, scenario: {trigger: {preset: github}}}\n');
    expect(a.tools.map((t) => t.parsed.scenario.trigger?.ack_timeout ?? null)).toEqual([null, 10 * S]);
  });
});

describe('the outputs of a scenario', () => {
  it('without a trigger echo no trigger key (its bytes are as before), and with one echo it after runtime', () => {
    expect(Object.keys(echoed(parse('actions: 10').scenario))).not.toContain('trigger');
    const keys = Object.keys(echoed(parse('trigger: {preset: slack}').scenario));
    expect(keys.slice(keys.indexOf('runtime'), keys.indexOf('runtime') + 2)).toEqual(['runtime', 'trigger']);
  });

  it('fingerprint the trigger when it is set', () => {
    const print = (yaml: string) => scenarioFingerprint(runnable(parse(yaml).scenario));
    expect(print('trigger: {ack_timeout: 1s}')).not.toBe(print('actions: 4000'));
    expect(print('trigger: {ack_timeout: 1s}')).not.toBe(print('trigger: {ack_timeout: 2s}'));
    expect(print('trigger: none')).toBe(print('actions: 4000'));
  });
});
