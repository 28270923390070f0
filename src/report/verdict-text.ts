/** An expectation's verdict in words, as every report of `check` says it (JUnit, GitHub's annotations, the step summary). */
import type { Expectation, Verdict } from '../scenario/expect.js';
import { describeReading, num } from './format.js';

/** `measured 41.5 ± 6.7, expected == 0`, and for `confidence: ci95` the interval checked. */
export function verdictMessage(v: Verdict): string {
  const e = v.expectation;
  const checked = v.interval ? `, 95% interval ${num(v.interval[0])} to ${num(v.interval[1])}` : '';
  return `measured ${describeReading(v.measured, e.metric)}${checked}, expected ${e.text}`;
}

/** Where an expectation was written: `file:line`. */
export const writtenAt = (e: Expectation): string => `${e.origin.source}${e.origin.line ? `:${e.origin.line}` : ''}`;
