/**
 * Warnings around `trigger:` (docs/triggers.md): a setting the trigger makes count is not
 * called inert, and a preset's worked-out redeliveries that a written window makes stale are
 * warned of with the count that keeps the preset's retention.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/exec/simulate.js';
import { parseOverrides } from '../src/scenario/overrides.js';
import { parseDuration } from '../src/scenario/duration.js';
import { parseScenario } from '../src/scenario/parse.js';
import { TRIGGER_PRESETS } from '../src/scenario/presets.js';
import { redeliveriesWithin } from '../src/scenario/trigger-warnings.js';
import { runnable } from './helpers.js';

const warned = (yaml: string, set: string[] = []) => parseScenario(yaml, 's.yaml', parseOverrides({ set })).warnings.map((w) => `${w.keyPath}: ${w.problem}`);

describe('agent.arg_drift_probability with a trigger', () => {
  const DRIFT = ['idempotency.scope=text', 'agent.arg_drift_probability=1'];
  const NO_REPLAN = 'agent: {replan_probability: 0}\n';

  it('is inert without a trigger (no call re-planned or replayed), and not with one that redelivers', () => {
    expect(warned(NO_REPLAN, DRIFT).filter((w) => w.startsWith('agent.arg_drift_probability'))).toEqual([
      'agent.arg_drift_probability: has no effect: no call is re-planned or replayed, and no action is delivered again, so no free text is rewritten',
    ]);
    expect(warned(`${NO_REPLAN}trigger: {preset: slack}\n`, DRIFT)).toEqual([]);
    expect(warned(`${NO_REPLAN}trigger: {preset: slack, ack: on_receipt, ack_loss: 0.1}\n`, DRIFT)).toEqual([]);
  });

  it('is still inert when the trigger delivers once: no redeliveries, or acknowledged on receipt with no loss', () => {
    for (const trigger of ['{preset: github}', '{preset: slack, ack: on_receipt}']) {
      expect(warned(`${NO_REPLAN}trigger: ${trigger}\n`, DRIFT)).toContain(
        'agent.arg_drift_probability: has no effect: no call is re-planned or replayed, and no action is delivered again, so no free text is rewritten');
    }
  });

  it('changes the run: each redelivery\'s run drifts its text, so a text key is shared less', () => {
    const yaml = `actions: 3000\n${NO_REPLAN}service: {latency: {dist: constant, value: 2s}}\nclient: {timeout: 5s, retries: 0}\ntrigger: {kind: webhook, ack_timeout: 1s, redeliveries: 2}\n`;
    const dup = (drift: string) => simulate(runnable(parseScenario(yaml, 's.yaml', parseOverrides({ set: ['idempotency.scope=text', `agent.arg_drift_probability=${drift}`] })).scenario), 'drift').metrics.duplicates_per_1000.value;
    expect(dup('0')).toBe(0); // every delivery keeps the text: the redelivery finds the key running
    expect(dup('1')).toBeGreaterThan(1000); // every delivery writes new text: a new key each
  });
});

describe('a preset whose redeliveries stand for a retention, with another window written beside it', () => {
  const stale = (trigger: string) => parseScenario(`trigger: ${trigger}\n`, 's.yaml').warnings.filter((w) => w.keyPath === 'trigger.preset');

  it('are marked in TRIGGER_PRESETS (sqs, pubsub), and their counts are their retention in their own windows', () => {
    const marked = Object.entries(TRIGGER_PRESETS).filter(([, p]) => p.retention !== undefined).map(([name]) => name);
    expect(marked).toEqual(['sqs', 'pubsub']);
    for (const name of marked) {
      const preset = TRIGGER_PRESETS[name]!;
      const own = parseScenario(`trigger: {preset: ${name}}\n`, 's.yaml').scenario.trigger!;
      expect(redeliveriesWithin(parseDuration(preset.retention!), own), name).toBe(own.redeliveries);
      expect(stale(`{preset: ${name}}`)).toEqual([]);
    }
  });

  it('warn at the preset with what the count stood for and the count that keeps the retention', () => {
    const [sqs] = stale('{preset: sqs, ack_timeout: 90s}');
    expect(sqs).toMatchObject({ origin: { source: 's.yaml', line: 1 } });
    expect(sqs?.problem).toBe('keeps trigger.redeliveries: 11519, which stands for 4d of retention in the preset\'s own windows of 30s, but trigger.ack_timeout (1.5m) written beside it makes each window 1.5m, so the count no longer stands for that retention');
    expect(sqs?.fix).toBe('Write trigger.redeliveries: 3839 beside the preset (the deliveries that start within 4d of retention in windows of 1.5m, less the first), or the count for your own queue\'s retention.');
    const [pubsub] = stale('{preset: pubsub, extend_up_to: none}');
    expect(pubsub?.problem).toMatch(/^keeps trigger.redeliveries: 167, which stands for 7d of retention in the preset's own windows of 1h, but trigger.extend_up_to \(none\) written beside it makes each window 10s,/);
    expect(pubsub?.fix).toMatch(/^Write trigger.redeliveries: 60479 beside the preset/); // docs/triggers.md's count for 7 days of 10 s
    // A count the limit holds: 4 days of 1 s windows is 345,600 deliveries.
    expect(stale('{preset: sqs, ack_timeout: 1s}')[0]?.fix).toMatch(/^Write trigger.redeliveries: 100000 beside .*, held to the limit of 100000\)/);
  });

  it('do not warn when the redeliveries are written too, the window is the preset\'s own, or the preset documents its count', () => {
    expect(stale('{preset: sqs, ack_timeout: 90s, redeliveries: 10}')).toEqual([]);
    expect(stale('{preset: sqs, ack_timeout: 30s}')).toEqual([]);
    expect(stale('{preset: pubsub, ack_timeout: 20s}')).toEqual([]); // the window is still the 60m extension
    expect(stale('{preset: sqs-dlq, ack_timeout: 90s}')).toEqual([]);
    expect(stale('{preset: pubsub-dlq, extend_up_to: none}')).toEqual([]);
  });

  it('count the deliveries that start within the retention, whatever the schedule', () => {
    const t = { ack_timeout: 30_000, extend_up_to: null, schedule: [0] };
    expect(redeliveriesWithin(100_000, t)).toBe(3); // at 0, 30, 60 and 90 s
    expect(redeliveriesWithin(90_000, t)).toBe(2); // at 90 s it has expired
    expect(redeliveriesWithin(100_000, { ...t, schedule: [10_000] })).toBe(2); // at 0, 40 and 80 s
    expect(redeliveriesWithin(1, t)).toBe(0);
  });
});
