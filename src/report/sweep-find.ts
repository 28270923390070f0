/**
 * `sweep --find`'s answer (docs/sweeps.md, "Finding a setting"): which points meet every
 * condition (sweeps/find.ts), and the least value of the first varied key that does, for each
 * setting of the others. A condition on an incident's backlog holds only where the service
 * recovered from it (its status `recovered`): a point that stormed before the incident, did not
 * recover before the load ended, whose window reaches the load's end, or whose storm outlived the
 * incident by more than 30 minutes never meets it, whatever its backlog.
 */
import { judge } from '../scenario/expect.js';
import { isSaturationPath, saturationQuery } from '../results/saturation.js';
import type { FindCondition } from '../sweeps/find.js';
import { recoveryWord } from './saturation-text.js';
import type { ParamValue } from './sweep-axes.js';
import { pointCell, readingShort, readPoint } from './sweep-readings.js';
import { show, type SweepPointResult, type SweepReport } from './sweep.js';

/** Whether the point meets the condition. */
export function meets(pt: SweepPointResult, c: FindCondition): boolean {
  if (isSaturationPath(c.path)) {
    const q = saturationQuery(c.path);
    if (q.reading === 'backlog_cleared_ms' && recoveryWord(pt.metrics, q.incident as string) !== 'recovered') return false;
  }
  return judge({ op: c.op, threshold: c.threshold, confidence: 'none' }, readPoint(pt, c.path)).pass;
}

/** Whether the point meets every condition. */
export const found = (pt: SweepPointResult, find: readonly FindCondition[]): boolean => find.every((c) => meets(pt, c));

/** The answer for one setting of the keys after the first. */
export interface FindAnswer {
  /** The other keys' values (none when one key varies). */
  at: Record<string, ParamValue>;
  /** Whether some value of the first key meets every condition. */
  found: boolean;
  /** The least such value (numbers in order; other values in the grid's order); null when none does. */
  least: ParamValue;
  /** Whether every value above the least meets them too; false when none does. */
  every_value_above: boolean;
  /** The first value above the least that does not (absent when every one does). */
  fails_above?: ParamValue;
  /** The least is the last value tried (nothing above it to say of). */
  last: boolean;
}

/** The answers, one per setting of the keys after the first, in the grid's order. */
export function findAnswers(r: SweepReport, find: readonly FindCondition[]): FindAnswer[] {
  const [key, ...others] = r.paths;
  if (key === undefined) return [];
  const groups = new Map<string, SweepPointResult[]>();
  for (const pt of r.points) {
    const at = JSON.stringify(others.map((p) => pt.params[p] ?? null));
    const group = groups.get(at);
    if (group) group.push(pt);
    else groups.set(at, [pt]);
  }
  return [...groups.values()].map((pts) => {
    const numeric = pts.every((pt) => typeof pt.params[key] === 'number');
    const ordered = numeric ? [...pts].sort((a, b) => (a.params[key] as number) - (b.params[key] as number)) : pts;
    const first = ordered.findIndex((pt) => found(pt, find));
    const at = Object.fromEntries(others.map((p) => [p, (pts[0] as SweepPointResult).params[p] ?? null]));
    if (first < 0) return { at, found: false, least: null, every_value_above: false, last: false };
    const failing = ordered.slice(first + 1).find((pt) => !found(pt, find));
    return {
      at, found: true, least: (ordered[first] as SweepPointResult).params[key] ?? null, every_value_above: failing === undefined,
      ...(failing ? { fails_above: failing.params[key] ?? null } : {}), last: first === ordered.length - 1,
    };
  });
}

/** Answer lines the table and the page print before saying how many more there are. */
export const ANSWER_LINES = 20;

/** The answers in words, one line each (at most ANSWER_LINES, then how many more). */
export function answerLines(r: SweepReport, find: readonly FindCondition[]): string[] {
  const [key = ''] = r.paths;
  const asked = find.map((c) => c.text).join(' and ');
  const answers = findAnswers(r, find);
  // A key of numbers is answered in their order; one of other values (none, unbounded, names) in the order given.
  const numeric = r.points.every((pt) => typeof pt.params[key] === 'number');
  const [least, above] = numeric ? ['least', 'above'] : ['first', 'after'];
  const lines = answers.slice(0, ANSWER_LINES).map((a) => {
    const where = Object.entries(a.at).map(([p, v]) => `${p}=${show(v, p)}`).join(', ');
    const head = `${where ? `at ${where}: ` : ''}`;
    if (!a.found) return `${head}no ${key} meets ${asked}${lastWords(r, key, a, find)}`;
    const rest = a.last ? 'the last value tried' : a.every_value_above ? `and every value ${above} it` : `not every value ${above} it: ${show(a.fails_above ?? null, key)} does not`;
    return `${head}${least} ${key}${numeric ? '' : ' in the order given'} with ${asked}: ${show(a.least, key)} (${rest})`;
  });
  return answers.length > ANSWER_LINES ? [...lines, `and ${answers.length - ANSWER_LINES} more settings (the CSV's found column has every point)`] : lines;
}

/** What the conditions read at the last value of the key (the largest number), where none met them. */
function lastWords(r: SweepReport, key: string, a: FindAnswer, find: readonly FindCondition[]): string {
  const pts = r.points.filter((pt) => Object.entries(a.at).every(([p, v]) => JSON.stringify(pt.params[p] ?? null) === JSON.stringify(v)));
  const numeric = pts.every((pt) => typeof pt.params[key] === 'number');
  const last = numeric ? [...pts].sort((x, y) => (x.params[key] as number) - (y.params[key] as number)).at(-1) : pts.at(-1);
  if (!last) return '';
  return ` (at ${show(last.params[key] ?? null, key)}: ${find.map((c) => `${readingShort(c.path)} ${pointCell(last, c.path)}`).join(', ')})`;
}
