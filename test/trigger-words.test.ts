/**
 * Words around `trigger:` (docs/triggers.md): the short name of the duplicates a redelivery made
 * says they are duplicates, not redeliveries; errors name the preset a kind meant, and describe
 * ack_timeout as above 0.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';
import { metricShort, METRICS } from '../src/results/metric-registry.js';
import { readingShort } from '../src/report/sweep-readings.js';

describe('the duplicates of source redelivery', () => {
  it('are named as duplicates where room is short (a sweep\'s column, a bar), as the sweep\'s dup/1000 is', () => {
    expect(METRICS['duplicates_per_1000.redelivery'].label).toBe('from redeliveries');
    expect(metricShort('duplicates_per_1000.redelivery')).toBe('redelivery dup/1000');
    expect(readingShort('duplicates_per_1000.redelivery')).toBe('redelivery dup/1000');
    expect(metricShort('duplicates_per_1000')).toBe('dup/1000');
  });
});

/** The error reading `yaml` ends with. */
function refusal(yaml: string): InputError {
  try {
    parseScenario(yaml, 's.yaml');
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('accepted');
}

describe('the errors of trigger keys', () => {
  it('suggest the preset when trigger.kind names one (or nearly)', () => {
    const e = refusal('trigger: {ack_timeout: 1s, kind: sqs}\n');
    expect(e).toMatchObject({ keyPath: 'trigger.kind', origin: { line: 1, col: 34 }, problem: '"sqs" is not one of the allowed values' });
    expect(e.fix).toBe('A provider is named by its preset: write trigger: {preset: sqs} instead of kind (it sets kind queue, the deadline and the redeliveries sqs documents; keys written beside it win), or give kind one of: queue, webhook.');
    expect(refusal('trigger: {kind: slak}\n').fix).toMatch(/^A provider is named by its preset: write trigger: \{preset: slack\} instead of kind \(it sets kind webhook,/);
    expect(refusal('trigger: {kind: queu, ack_timeout: 1s}\n').fix).toBe('Did you mean `queue`? Use one of: queue, webhook.');
    expect(refusal('trigger: {kind: kafka, ack_timeout: 1s}\n').fix).toBe('Use one of: queue, webhook.');
  });

  it('describe ack_timeout as above 0, which it must be (0 is refused with its reason)', () => {
    for (const value of ['.nan', '-1s']) {
      const e = refusal(`trigger: {ack_timeout: ${value}}\n`);
      expect(e.keyPath).toBe('trigger.ack_timeout');
      expect(e.problem, value).toMatch(/, expected a duration above 0 with its unit, at most 3650d \(10 years\), such as 250ms, 2s, 5m, 1h or 7d \(the sender's deadline/);
      expect(e.problem, value).not.toMatch(/>= 0|or 0 \(/);
    }
    expect(refusal('trigger: {ack_timeout: 0}\n').problem).toBe('is 0: the sender would give up on every delivery the moment it made it');
    // Other durations still take 0.
    expect(refusal('client: {timeout: -1s}\n').problem).toMatch(/expected a duration >= 0 with its unit, .*, or 0 \(/);
  });
});
