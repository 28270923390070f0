/**
 * The values of one varied key: a list (`5m,1h,24h`, `none,call,intent`), an evenly
 * spaced range (`200ms..2s:10`: 10 points, both ends included) or a log-spaced one
 * (`log:100ms..10s:9`). Range ends with a unit are durations, and their points are
 * milliseconds; without, plain numbers.
 */
import { parseDuration } from '../scenario/duration.js';
import { clipped } from '../scenario/printable.js';

/** Why a values spec cannot be read, with the fix. */
export class ValuesError extends Error {
  constructor(readonly problem: string, readonly fix: string) {
    super(problem);
  }
}

const NUMBER = '[-+]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?';
const RANGE = new RegExp(`^(log:)?\\s*(${NUMBER})\\s*(ms|s|m|h|d)?\\s*\\.\\.\\s*(${NUMBER})\\s*(ms|s|m|h|d)?\\s*(?::\\s*([0-9]+))?\\s*$`);

/** Values as text, each read later like a `--set` value (YAML: `5m`, `0.2`, `intent`). */
export function parseValues(spec: string | readonly (string | number | boolean)[], isDuration = false): string[] {
  if (Array.isArray(spec)) {
    if (spec.length === 0) throw new ValuesError('the list of values is empty', 'Give at least one value.');
    return spec.map(String);
  }
  const text = String(spec).trim();
  const m = RANGE.exec(text);
  if (m) {
    const [, log = '', a, unitA, b, unitB, count] = m;
    // A range of a duration without units would make bare numbers, each refused: say it of the range.
    // One end without its unit (`500ms..2:3`) would be read as ms: only 0 may stand alone.
    const bare = (n: string | undefined, unit: string | undefined) => unit === undefined && Number(n) !== 0;
    // (A negative end is refused as such by range().)
    if (isDuration && Number(a) >= 0 && Number(b) >= 0 && (bare(a, unitA) || bare(b, unitB))) {
      throw new ValuesError(`the range ${text} has ${bare(a, unitA) && bare(b, unitB) ? 'no unit' : 'an end without its unit'}, but the key is a duration`,
        `Write ${log}${a}${unitA ?? 'ms'}..${b}${unitB ?? 'ms'}:${count ?? 'POINTS'} or ${log}${a}${unitA ?? 's'}..${b}${unitB ?? 's'}:${count ?? 'POINTS'}, whichever you mean.`);
    }
    return range(m);
  }
  if (text.includes('..')) {
    throw new ValuesError(`"${clipped(text, 80)}" is not a range`, 'Write a range as FROM..TO:POINTS, such as 200ms..2s:10 or log:100ms..10s:9.');
  }
  const values = text.split(',').map((v) => v.trim());
  if (values.some((v) => v === '')) {
    throw new ValuesError(`"${clipped(text, 80)}" has an empty value`, 'Separate values with single commas, such as 5m,1h,24h.');
  }
  return values;
}

/**
 * How many values `spec` gives, without making them: the grid's size is checked from these
 * before any value is made (`1s..2s:1000000000` once made a billion strings to refuse them).
 */
export function countValues(spec: string | readonly (string | number | boolean)[]): number {
  if (Array.isArray(spec)) {
    if (spec.length === 0) throw new ValuesError('the list of values is empty', 'Give at least one value.');
    return spec.length;
  }
  const text = String(spec).trim();
  const m = RANGE.exec(text);
  if (m) return rangeCount(m);
  let n = 1;
  for (let i = text.indexOf(','); i >= 0; i = text.indexOf(',', i + 1)) n++;
  return n;
}

function rangeCount(m: RegExpExecArray): number {
  const count = m[6];
  if (count === undefined) {
    throw new ValuesError(`the range ${m[0]} does not say how many points`, `Add :POINTS, such as ${m[0]}:10.`);
  }
  const n = Number(count);
  if (n < 2) throw new ValuesError(`a range of ${n} point${n === 1 ? '' : 's'} is empty or a single value`, 'Ask for at least 2 points, or give the single value as a list.');
  return n;
}

function range(m: RegExpExecArray): string[] {
  const [, log, a, unitA, b, unitB] = m;
  const n = rangeCount(m);
  const durations = unitA !== undefined || unitB !== undefined;
  if (durations && (Number(a) < 0 || Number(b) < 0)) {
    throw new ValuesError(`the range ${m[0]} has a negative duration`, 'Durations start at 0: write the range from 0 or above.');
  }
  const from = durations ? parseDuration(`${a}${unitA ?? 'ms'}`) : Number(a);
  const to = durations ? parseDuration(`${b}${unitB ?? 'ms'}`) : Number(b);
  if (log && !(from > 0 && to > 0)) {
    throw new ValuesError('a log range needs both ends above 0', 'Start the range above 0, such as log:10ms..10s:7.');
  }
  return Array.from({ length: n }, (_, i) => {
    const f = i / (n - 1);
    const v = log ? from * (to / from) ** f : from + (to - from) * f;
    // No float noise in the CSV (0.30000000000000004 -> 0.3); a duration keeps its unit, ms.
    return `${Number(v.toPrecision(12))}${durations ? 'ms' : ''}`;
  });
}
