/**
 * Warnings around `trigger:` (docs/triggers.md): a setting the trigger makes count is not
 * called inert, and a preset's worked-out redeliveries that a written window makes stale are
 * warned of with the count that keeps the preset's retention.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/exec/simulate.js';
import { parseOverrides } from '../src/scenario/overrides.js';
import { parseScenario } from '../src/scenario/parse.js';
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
