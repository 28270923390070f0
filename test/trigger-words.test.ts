/**
 * Words around `trigger:` (docs/triggers.md): the short name of the duplicates a redelivery made
 * says they are duplicates, not redeliveries; errors name the preset a kind meant, describe
 * ack_timeout as above 0, and say that trigger.schedule, a list, cannot be swept whole.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/scenario/errors.js';
import { parseScenario } from '../src/scenario/parse.js';
import { SCHEDULE_SWEEP_FIX } from '../src/scenario/trigger-checks.js';
import { readAxes } from '../src/sweeps/plan.js';
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
    // Other durations still take 0; client.timeout is described as above 0 too (its 0 is refused with its reason).
    expect(refusal('client: {backoff: {base: -1s}}\n').problem).toMatch(/expected a duration >= 0 with its unit, .*, or 0 \(/);
    expect(refusal('client: {timeout: -1s}\n').problem).toMatch(/expected a duration above 0 with its unit, .* \(client timeout per attempt\)$/);
  });
});

describe('a sweep of trigger.schedule', () => {
  const axes = (vary: string[], file: { path: string; values: string[] }[] = []) =>
    readAxes('s.yaml', file.map((v) => ({ ...v, origin: { source: 's.yaml', line: 4 } })), vary, () => 1000);
  const SAYS = /^trigger\.schedule is a list of waits, which a sweep cannot vary: --vary splits its values at commas, and a sweep: block gives each point one value, not a list$/;

  it('is refused whole, from --vary or a sweep: block, with what to sweep instead', () => {
    for (const vary of ['trigger.schedule=0s,1m', 'trigger.schedule=[0s,1m]']) {
      expect(() => axes([vary])).toThrow(InputError);
      try { axes([vary]); } catch (e) {
        expect((e as InputError).problem).toMatch(SAYS);
        expect((e as InputError).fix).toBe(SCHEDULE_SWEEP_FIX);
        expect((e as InputError).origin).toEqual({ source: `--vary ${vary}` });
      }
    }
    expect(() => axes([], [{ path: 'trigger.schedule', values: ['0s', '1m'] }])).toThrow(/trigger\.schedule is a list of waits, which a sweep cannot vary/);
    expect(SCHEDULE_SWEEP_FIX).toMatch(/trigger\.ack_timeout or trigger\.redeliveries/);
    expect(SCHEDULE_SWEEP_FIX).toMatch(/one scenario per schedule/);
  });

  it('takes one of its waits, and whole trigger mappings', () => {
    expect(axes(['trigger.schedule[1]=1m,10m'])[0]?.values).toEqual(['1m', '10m']);
    expect(axes(['trigger.ack_timeout=1s,3s'])[0]?.values).toEqual(['1s', '3s']);
  });

  it('written as a list of lists in a sweep: block, is refused at its line with the same fix', () => {
    const e = refusal('trigger: {preset: slack}\nsweep:\n  vary:\n    trigger.schedule: [[0s], [1m]]\n');
    expect(e).toMatchObject({ keyPath: 'sweep.vary.trigger.schedule[0]', origin: { line: 4 } });
    expect(e.fix).toBe(`trigger.schedule is a list, which a sweep cannot vary. ${SCHEDULE_SWEEP_FIX}`);
  });
});
