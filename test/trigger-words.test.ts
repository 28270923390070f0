/**
 * Words around `trigger:` (docs/triggers.md): the short name of the duplicates a redelivery made
 * says they are duplicates, not redeliveries.
 */
import { describe, expect, it } from 'vitest';
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
