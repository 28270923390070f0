/**
 * A sweep's plan: its axes read from the scenario's `sweep.vary` and --vary, and each point's
 * overrides and labels. Pure: the command (cli/sweep.ts) reads the files and runs the points.
 */
import type { WrittenScenario } from '../model/types.js';
import { InputError } from '../scenario/errors.js';
import { parseKeyPath } from '../scenario/overrides.js';
import type { FileVary, Override } from '../scenario/parse.js';
import { clipped } from '../scenario/printable.js';
import { isDurationKey } from '../scenario/schema.js';
import { SCHEDULE_SWEEP_FIX } from '../scenario/trigger-checks.js';
import { paramAt } from '../model/shape.js';
import { MAX_POINTS, type Axis, type GridPoint } from './grid.js';
import { labelChars, MAX_LABEL_CHARS, pointLabel, type Label } from './labels.js';
import { countValues, parseValues, ValuesError } from './values.js';

/** A varied key, and whether its values were written as a log range (`log:100ms..10s:9`): charts draw those on a log axis. */
export type SweepAxis = Axis & { log: boolean };
const isLogRange = (spec: string | readonly unknown[]) => typeof spec === 'string' && /^\s*log:/.test(spec);

/**
 * What one point of the grid runs: a scenario's point is one run; an agent's (sweeps/agent-plan.ts)
 * is one run per tool, and the limit on points (--max-points) counts runs. `keyOf`: the scenario
 * key a varied path names (its duration unit, its whole numbers).
 */
export interface AxisRuns { perPoint: number; what: string; keyOf: (path: string) => string }
const SCENARIO_RUNS: AxisRuns = { perPoint: 1, what: 'runs', keyOf: (path) => path };

/** A varied key as written, before its values are made: a range of 10^9 points is refused from its count. */
interface AxisSpec { path: string; spec: string | readonly (string | number | boolean)[]; option: string; where: string; keyPath: string }

function axisFromOption(arg: string): AxisSpec {
  const eq = arg.indexOf('=');
  const option = `--vary ${arg}`;
  const path = eq > 0 ? arg.slice(0, eq).trim() : '';
  if (!path || !parseKeyPath(path)) {
    throw new InputError({ source: option }, '', 'expected PATH=VALUES', 'Write it as --vary client.timeout=200ms..2s:10 or --vary idempotency.scope=none,call,intent.');
  }
  return { path, spec: arg.slice(eq + 1), option, where: option, keyPath: '' };
}

function fromValuesError<T>(a: AxisSpec, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof ValuesError) throw new InputError({ source: a.where }, a.keyPath, e.problem, e.fix);
    throw e;
  }
}

/**
 * The grid's axes: the scenario's `sweep.vary` and the --vary options (which win). Every check
 * that needs no values comes first, then `limit()` gives the most points allowed (--max-points,
 * asked for only then), and the grid's size is the product of the value counts, so a grid over
 * the limit is refused before any value is made.
 */
export function readAxes(file: string, fileVary: readonly FileVary[], vary: readonly string[], limit: () => number, runs: AxisRuns = SCENARIO_RUNS): SweepAxis[] {
  const fromOptions = vary.map(axisFromOption);
  const given = new Set<string>();
  for (const a of fromOptions) {
    if (given.has(a.path)) throw new InputError({ source: a.option }, '', `${a.path} is varied twice`, 'Give each key one --vary, with all its values.');
    given.add(a.path);
  }
  const fromFile = fileVary.filter((v) => !given.has(v.path)).map((v): AxisSpec => {
    const where = `${v.origin.source}${v.origin.line ? `:${v.origin.line}` : ''}`;
    return { path: v.path, spec: v.values, option: `sweep.vary.${v.path} (${where})`, where, keyPath: `sweep.vary.${v.path}` };
  });
  const specs = [...fromFile, ...fromOptions];
  for (const a of specs) {
    const top = a.path.split(/[.[]/)[0] ?? '';
    if (['seed', 'description', 'hint', 'expect', 'sweep', '$schema'].includes(top)) {
      throw new InputError({ source: a.option }, '', `${a.path} is not a setting of the model`,
        top === 'seed' ? 'Every point uses one seed (common random numbers); to compare seeds, run the sweep with --seed.' : 'Vary the scenario\'s settings, such as client.timeout.');
    }
    checkNotAList(a, runs.keyOf(a.path));
  }
  if (specs.length === 0) {
    throw new InputError({ source: file }, '', 'nothing to vary', 'Give --vary PATH=VALUES (such as --vary client.timeout=200ms..2s:10), or a sweep: block in the scenario.');
  }
  const maxPoints = limit();
  const counts = specs.map((a) => fromValuesError(a, () => countValues(a.spec)));
  const size = counts.reduce((n, c) => n * c, runs.perPoint);
  if (size > maxPoints) {
    const shown = Number.isSafeInteger(size) ? size.toLocaleString('en-US') : `${[...counts, ...(runs.perPoint > 1 ? [runs.perPoint] : [])].map((c) => c.toLocaleString('en-US')).join(' × ')} (over 10^15)`;
    // Named by where its axes were given: --vary, the file's sweep: block, or both.
    const source = fromFile.length === 0 ? '--vary' : `${fromFile.map((a) => a.where).join(', ')}${fromOptions.length > 0 ? ' and --vary' : ''}`;
    const what = runs.perPoint > 1 && Number.isSafeInteger(size) ? `${(size / runs.perPoint).toLocaleString('en-US')} points of ${runs.perPoint} ${runs.what} each, ${shown} runs` : `${shown} ${runs.perPoint > 1 ? 'runs' : 'points'}`;
    throw new InputError({ source }, fromFile.length > 0 ? 'sweep.vary' : '', `the grid has ${what}, more than ${maxPoints.toLocaleString('en-US')} (--max-points)`,
      size <= MAX_POINTS ? `Vary fewer values, or raise the limit with --max-points ${size}.` : `Vary fewer values: a sweep has at most ${MAX_POINTS.toLocaleString('en-US')} ${runs.perPoint > 1 ? 'runs' : 'points'}, the most --max-points allows.`);
  }
  return specs.map((a): SweepAxis => {
    const values = fromValuesError(a, () => parseValues(a.spec, isDurationKey(runs.keyOf(a.path))));
    checkWholeRange(a, values, runs.keyOf(a.path));
    const seen = new Set<string>();
    for (const v of values) {
      if (seen.has(v)) throw new InputError({ source: a.option }, '', `the value ${v} is given twice`, 'Give each value once.');
      seen.add(v);
    }
    return { path: a.path, values, option: a.option, log: isLogRange(a.spec) };
  });
}

/**
 * A list of durations (trigger.schedule) is no sweep's value: --vary splits its values at
 * commas, and a sweep: block gives one value a point. One of its entries (`[1]`) may be varied.
 */
function checkNotAList(a: AxisSpec, key: string): void {
  if (paramAt(key)?.kind !== 'durations' || /\]\s*$/.test(key)) return;
  throw new InputError({ source: a.option }, '', `${a.path} is a list of waits, which a sweep cannot vary: --vary splits its values at commas, and a sweep: block gives each point one value, not a list`,
    SCHEDULE_SWEEP_FIX);
}

/**
 * A point's labels (sweeps/labels.ts): each key's value in the scenario as written, or as the
 * sweep gave it where the scenario holds none (`none`).
 */
export function pointParams(axes: readonly SweepAxis[], pt: GridPoint, written: WrittenScenario): Record<string, Label> {
  return Object.fromEntries(axes.map((a, i) => [a.path, pointLabel(written, parseKeyPath(a.path) ?? []) ?? (pt.values[i] as string)]));
}

/** A point as errors and warnings name it: `client.timeout=1s, idempotency.scope=none`. */
export const pointName = (axes: readonly SweepAxis[], pt: GridPoint): string => axes.map((a, i) => `${a.path}=${pt.values[i]}`).join(', ');

/** A point's labels (of its scenario as written), refused before any point runs when they pass MAX_LABEL_CHARS together. */
export function checkLabels(axes: readonly SweepAxis[], pt: GridPoint, written: WrittenScenario): void {
  checkLabelChars(axes, pt, pointParams(axes, pt, written));
}

/** A point's labels `params` (of a scenario, or of an agent: sweeps/agent-plan.ts), refused when they pass MAX_LABEL_CHARS together. */
export function checkLabelChars(axes: readonly SweepAxis[], pt: GridPoint, params: Readonly<Record<string, Label>>): void {
  const chars = labelChars(params);
  if (chars <= MAX_LABEL_CHARS) return;
  const where = axes.map((a, i) => `${a.path}=${clipped(pt.values[i] as string, 60)}`).join(', ');
  throw new InputError({ source: axes.map((a) => a.option).join(', ') }, '',
    `the point ${where} is labelled with ${chars.toLocaleString('en-US')} characters (its values as the outputs print them), more than ${MAX_LABEL_CHARS}, the limit`,
    'Vary shorter values (fewer keys in a mapping, a shorter file name), or vary the keys inside a mapping one by one, such as service.latency.median.');
}

/** A point's values as overrides, after the command's --set. */
export function pointOverrides(axes: readonly SweepAxis[], pt: GridPoint): Override[] {
  return axes.map((a, k): Override => ({ path: parseKeyPath(a.path) ?? [], text: pt.values[k] as string, option: `${a.option} (value ${pt.values[k]})` }));
}

/** A range over a key of whole numbers (`service.capacity.workers=10..40:10`) whose `:N` points fall between them: said so, with a count that fits. */
function checkWholeRange(a: AxisSpec, values: readonly string[], key: string): void {
  const p = paramAt(key);
  const q = p?.kind === 'override' ? p.of : p;
  const whole = q?.kind === 'count' || q?.kind === 'count_or_unbounded';
  const m = /^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*:\s*(\d+)\s*$/.exec(typeof a.spec === 'string' ? a.spec : '');
  if (!whole || !m || values.every((v) => Number.isInteger(Number(v)))) return;
  const [from, to] = [Number(m[1]), Number(m[2])];
  const span = Math.abs(to - from);
  const fits = [...Array(Math.min(span, 50)).keys()].map((k) => k + 2).filter((n) => span % (n - 1) === 0).sort((x, y) => Math.abs(x - Number(m[3])) - Math.abs(y - Number(m[3])))[0] ?? 2;
  throw new InputError({ source: a.option }, '', `${a.path} takes whole numbers, but ${m[0]?.trim()} makes ${m[3]} points ${(span / (Number(m[3]) - 1)).toPrecision(3)} apart (:N is how many points, ends included)`,
    `Give a count that lands on whole numbers, such as ${from}..${to}:${fits}, or list the values (${from},${Math.round((from + to) / 2)},${to}).`);
}
