/**
 * `sweep --find CONDITION`: a question the sweep answers (docs/sweeps.md, "Finding a setting"),
 * written as `expect:` writes a threshold, `PATH OP VALUE`: `backlog_cleared_ms.pause<=60s`,
 * `duplicates_per_1000 < 5`, `stable == true`. Pure: read here, judged at each point by the
 * reporters (report/sweep-find.ts).
 */
import { isFlagPath } from '../results/saturation.js';
import { isDurationReading, parseThreshold, type Operator } from '../scenario/expect.js';
import { DURATION_PATTERN, isBareDuration } from '../scenario/duration.js';
import { InputError } from '../scenario/errors.js';
import { clipped } from '../scenario/printable.js';
import type { WrittenScenario } from '../model/types.js';
import { checkSweepMetric, sweepMetricOf, type SweepMetric } from './metric.js';

export interface FindCondition {
  /** The reading, as `expect:` names it. */
  path: SweepMetric;
  op: Operator;
  /** In the reading's unit (ms for a time; 1 or 0 for true or false). */
  threshold: number;
  /** As given, for the replay line and the words: `backlog_cleared_ms.pause<=60s`. */
  text: string;
}

/** Most --find conditions a sweep takes. */
export const MAX_FIND = 8;

const PARTS = /^\s*([A-Za-z0-9_.:-]+?)\s*(<=|>=|==|!=|<|>)\s*(.+?)\s*$/;

/** One `--find` as given, read and checked (the reading's name, its unit). */
export function parseFind(text: string): FindCondition {
  const source = { source: `--find ${clipped(text, 120)}` };
  const m = PARTS.exec(text);
  if (!m) {
    throw new InputError(source, '', 'is not a condition of the form READING OP VALUE',
      'Write it as expect: writes a threshold, such as --find \'backlog_cleared_ms.pause<=60s\', --find \'duplicates_per_1000<5\' or --find stable==true (OP one of <, <=, ==, !=, >=, >).');
  }
  const [, name = '', op = '', amount = ''] = m;
  const path = sweepMetricOf('--find', name, text);
  if (isFlagPath(path)) {
    if (!['true', 'false'].includes(amount) || (op !== '==' && op !== '!=')) {
      throw new InputError(source, '', `${path} is true or false`, `Write --find ${path}==true or --find ${path}==false.`);
    }
    return { path, op: op as Operator, threshold: amount === 'true' ? 1 : 0, text: text.trim() };
  }
  const timed = isDurationReading(path);
  if (/[a-z]$/.test(amount)) {
    if (!timed) throw new InputError(source, '', `"${clipped(amount, 40)}" has a time unit, but ${path} is not a time`, 'Write the value as a plain number; units are for times (ms readings).');
    if (!new RegExp(DURATION_PATTERN).test(amount)) throw new InputError(source, '', `"${clipped(amount, 40)}" is not a duration`, 'Write a duration >= 0 such as 250ms, 60s or 2m.');
  } else if (timed && isBareDuration(amount)) {
    throw new InputError(source, '', `the value "${clipped(amount, 40)}" has no unit, but ${path} is a time`, `Write ${op}${amount}s or ${op}${amount}ms, whichever you mean; only 0 may stand alone.`);
  } else if (!Number.isFinite(Number(amount)) || amount === '') {
    throw new InputError(source, '', `"${clipped(amount, 40)}" is not a number`, `Write a number after ${op}, such as ${path}${op}5.`);
  }
  const { threshold } = parseThreshold(`${op} ${amount}`);
  if (!Number.isFinite(threshold)) throw new InputError(source, '', 'the value is a number too large to use (it reads as infinite)', 'Write a value a reading can reach.');
  return { path, op: op as Operator, threshold, text: text.trim() };
}

/** The --find conditions as given (each value read when taken, raising its error then), each naming a reading the points can have; at most MAX_FIND. */
export function findConditions(given: readonly { readonly value: FindCondition; readonly text: string }[], scenario: WrittenScenario, varied: readonly string[]): FindCondition[] {
  if (given.length > MAX_FIND) {
    throw new InputError({ source: '--find' }, '', `is given ${given.length} times, more than the ${MAX_FIND} conditions a sweep takes`, 'Find with fewer conditions at a time.');
  }
  return given.map((g) => {
    const c = g.value;
    checkSweepMetric(c.path, { origin: { source: `--find ${g.text}` }, keyPath: '' }, scenario, varied);
    return c;
  });
}
